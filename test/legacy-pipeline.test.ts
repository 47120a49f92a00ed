// Issue 10: the legacy API runs through the one request path (src/pipeline/run.ts)
// with its own rules (legacy spec 5, 9): the shared body limit (413 in the legacy
// error shape), the shared key lookup (one 401 for every bad key), not regional,
// not charged to the v3 budgets.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer({ maxBodyBytes: 1024, standardBudget: 2 });
});
after(async () => {
  await s.close();
});

const V2 = { 'X-API-VERSION': '2.0' };

test('legacy 8 (issue 10): a body over the shared limit is 413 in the legacy error shape, nothing created', async () => {
  const names = Array.from({ length: 200 }, (_, i) => `Checklist ${i}`);
  const r = await s.api(KEYS.admin, 'POST', '/api/checklist/create-many', { templateKey: DEMO.expense, checklistNames: names }, V2);
  assert.equal(r.status, 413);
  assert.deepEqual(Object.keys(r.body), ['error']);
  assert.match(r.body.error, /larger than the limit of 1024 bytes/);
  const list = await s.api(KEYS.admin, 'GET', '/v3/checklists?search=Checklist%20199');
  assert.equal(list.body.total, 0);
});

test('legacy 5 (issue 10): the shared key lookup: missing, invalid, revoked, expired and unavailable keys are one 401', async () => {
  for (const key of [null, 'nope', KEYS.revoked, KEYS.expired, KEYS.unavailable]) {
    const r = await s.api(key, 'POST', `/api/checklist?templateKey=${DEMO.expense}&checklistName=x`);
    assert.equal(r.status, 401, String(key));
    assert.deepEqual(r.body, { error: 'The API key is missing or invalid.' });
  }
});

test('legacy 5, 9 (issue 10): not regional and not charged to the v3 budgets (no rate-limit headers, never 429)', async () => {
  for (let i = 0; i < 4; i++) {
    const r = await s.api(KEYS.globexAdmin, 'POST', `/api/checklist?templateKey=${'20000000-0000-4000-8000-000000000011'}&checklistName=Audit%20${i}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ratelimit-limit'), null);
    assert.ok(r.headers.get('x-request-id'));
  }
});
