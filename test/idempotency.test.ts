// Spec v3 4.1 rule 12, 4.6 rule 4, 8 (replays count): Idempotency-Key on REST and
// idempotencyKey on MCP, against a real write served next to the real operation table.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, budgetSpent, callTool, withoutRequestId, KEYS, type TestServer } from './helpers/server';
import { testOps, HOUR } from './helpers/platform';

let s: TestServer;
before(async () => {
  s = await startTestServer({ ops: testOps });
});
after(async () => {
  await s.close();
});

const count = async () => (await s.api(KEYS.admin, 'GET', '/v3/test-notes')).body.count as number;
const post = (body: unknown, key?: string, apiKey: string = KEYS.admin, base?: string) =>
  s.api(apiKey, 'POST', '/v3/test-notes', body, key === undefined ? {} : { 'Idempotency-Key': key }, base);

test('4.1 rule 12: the same key and request within 24 hours returns the first answer, once written', async () => {
  const before = await count();
  const first = await post({ name: 'a', text: 'hello' }, 'k-replay-1');
  assert.equal(first.status, 201);
  assert.equal(first.headers.get('idempotent-replayed'), null);
  const again = await post({ text: 'hello', name: 'a' }, 'k-replay-1'); // same request, properties reordered
  assert.equal(again.status, 201);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(await count(), before + 1);
});

test('8: a replay counts against the rate budget', async () => {
  await post({ name: 'budget' }, 'k-budget');
  const a = await post({ name: 'budget' }, 'k-budget');
  const b = await post({ name: 'budget' }, 'k-budget');
  assert.equal(a.headers.get('x-ratelimit-bucket'), 'standard');
  assert.equal(budgetSpent(a, b), 1);
});

test('4.1 rule 12: the same key with different arguments is 409 CONFLICT and writes nothing', async () => {
  await post({ name: 'b' }, 'k-diff');
  const before = await count();
  const other = await post({ name: 'b', text: 'changed' }, 'k-diff');
  assert.equal(other.status, 409);
  assert.equal(other.body.error.code, 'CONFLICT');
  assert.match(other.body.error.message, /different request/);
  assert.equal(other.body.error.requestId, other.headers.get('x-request-id'));
  assert.equal(await count(), before);
});

test('4.1 rule 12: the same key on a different route is a different request (409)', async () => {
  await post({ name: 'c' }, 'k-route');
  const del = await s.api(KEYS.admin, 'DELETE', '/v3/test-notes/c', undefined, { 'Idempotency-Key': 'k-route' });
  assert.equal(del.status, 409);
  assert.equal(del.body.error.code, 'CONFLICT');
});

test('4.1 rule 12: the same key sent by another API key of the workspace is a different request (409)', async () => {
  await post({ name: 'd' }, 'k-other-key', KEYS.admin);
  const r = await post({ name: 'd' }, 'k-other-key', KEYS.member);
  assert.equal(r.status, 409);
});

test('4.1 rule 12: keys are scoped to the workspace: the same key in another workspace is a new request', async () => {
  const acme = await post({ name: 'e' }, 'k-shared');
  const globex = await post({ name: 'e' }, 'k-shared', KEYS.globexAdmin, s.eu);
  assert.equal(acme.status, 201);
  assert.equal(globex.status, 201);
  assert.equal(globex.headers.get('idempotent-replayed'), null);
});

test('4.1 rule 12: while the first request is still running, the same key is 409 CONFLICT', async () => {
  const first = await post({ name: 'f' }, 'k-flight');
  assert.equal(first.body.runningClaimsSeen, 1, 'the claim is committed as running while the write runs');
  // Another process (wfe mcp on the same file) holding the key looks like this:
  s.emu.db.prepare("UPDATE idempotency SET state = 'running', created_at = ? WHERE key = 'k-flight'").run(s.emu.clock.now());
  const r = await post({ name: 'f' }, 'k-flight');
  assert.equal(r.status, 409);
  assert.equal(r.body.error.code, 'CONFLICT');
  assert.match(r.body.error.message, /still running/);
  // A claim a dead process left behind is taken over after a minute.
  s.emu.clock.advance(61_000);
  const later = await post({ name: 'f' }, 'k-flight');
  assert.equal(later.status, 201);
  assert.equal(later.headers.get('idempotent-replayed'), null);
});

test('4.1 rule 12: after 24 hours the key answers anew', async () => {
  const first = await post({ name: 'g' }, 'k-day');
  s.emu.clock.advance(24 * HOUR - 5_000);
  assert.equal((await post({ name: 'g' }, 'k-day')).headers.get('idempotent-replayed'), 'true');
  s.emu.clock.advance(10_000);
  const fresh = await post({ name: 'g' }, 'k-day');
  assert.equal(fresh.status, 201);
  assert.equal(fresh.headers.get('idempotent-replayed'), null);
  assert.notEqual(fresh.body.id, first.body.id);
});

test('4.1 rule 12: a refused write stores no answer and keeps nothing; the key stays usable', async () => {
  const before = await count();
  const refused = await post({ name: 'h', refuse: true }, 'k-refused');
  assert.equal(refused.status, 409);
  assert.match(refused.body.error.message, /refused after writing/);
  assert.equal(await count(), before, 'the write rolled back');
  const ok = await post({ name: 'h' }, 'k-refused');
  assert.equal(ok.status, 201);
});

test('4.1 rule 10/12: a 204 write replays as 204 with no body', async () => {
  const a = await s.api(KEYS.admin, 'DELETE', '/v3/test-notes/x', undefined, { 'Idempotency-Key': 'k-204' });
  assert.equal(a.status, 204);
  await post({ name: 'after-delete' });
  const b = await s.api(KEYS.admin, 'DELETE', '/v3/test-notes/x', undefined, { 'Idempotency-Key': 'k-204' });
  assert.equal(b.status, 204);
  assert.equal(b.text, '');
  assert.equal(b.headers.get('idempotent-replayed'), 'true');
  assert.equal(await count(), 1, 'the replay deleted nothing');
});

test('8: Idempotency-Key of 255 characters is accepted; 256 or empty is 400 VALIDATION_ERROR field Idempotency-Key', async () => {
  assert.equal((await post({ name: 'i' }, 'k'.repeat(255))).status, 201);
  const long = await post({ name: 'i' }, 'k'.repeat(256));
  assert.equal(long.status, 400);
  assert.equal(long.body.error.code, 'VALIDATION_ERROR');
  assert.equal(long.body.error.field, 'Idempotency-Key');
  const empty = await post({ name: 'i' }, '');
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.field, 'Idempotency-Key');
  const blank = await post({ name: 'i' }, '   ');
  assert.equal(blank.status, 400);
});

test('4.1: input is validated before the key is looked at', async () => {
  const r = await post({ name: '' }, 'k'.repeat(300));
  assert.equal(r.status, 400);
  assert.equal(r.body.error.field, 'name');
});

test('4.1 rule 12: reads ignore Idempotency-Key', async () => {
  const r = await s.api(KEYS.admin, 'GET', '/v3/members/103', undefined, { 'Idempotency-Key': 'x'.repeat(300) });
  assert.equal(r.status, 200);
});

test('4.6 rule 4: MCP idempotencyKey replays the first answer, marked _meta.idempotentReplay', async () => {
  const c = await s.mcp(KEYS.admin);
  const first = await callTool(c, 'create_test_note', { name: 'mcp', text: 't', idempotencyKey: 'm-1' });
  assert.equal(first.isError, false);
  assert.equal(first.meta?.idempotentReplay, undefined);
  const again = await callTool(c, 'create_test_note', { name: 'mcp', text: 't', idempotencyKey: 'm-1' });
  assert.equal(again.isError, false);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.meta?.idempotentReplay, true);
  // REST with the same key and request replays the MCP answer too (same workspace, key and request).
  const rest = await post({ name: 'mcp', text: 't' }, 'm-1');
  assert.deepEqual(rest.body, first.body);
  assert.equal(rest.headers.get('idempotent-replayed'), 'true');
});

test('4.6 rule 4: MCP idempotencyKey with different arguments is CONFLICT, the same body as REST', async () => {
  const c = await s.mcp(KEYS.admin);
  await callTool(c, 'create_test_note', { name: 'mcp2', idempotencyKey: 'm-2' });
  const r = await callTool(c, 'create_test_note', { name: 'mcp2', text: 'other', idempotencyKey: 'm-2' });
  assert.equal(r.isError, true);
  const rest = await post({ name: 'mcp2', text: 'other' }, 'm-2');
  assert.equal(rest.status, 409);
  assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body));
  assert.match(r.text, /^CONFLICT: /);
});

test('4.6 rule 4: MCP idempotencyKey over 255 characters or empty is 400 field idempotencyKey', async () => {
  const c = await s.mcp(KEYS.admin);
  const long = await callTool(c, 'create_test_note', { name: 'm', idempotencyKey: 'k'.repeat(256) });
  assert.equal(long.isError, true);
  assert.equal(long.body.error.code, 'VALIDATION_ERROR');
  assert.equal(long.body.error.field, 'idempotencyKey');
  const empty = await callTool(c, 'create_test_note', { name: 'm', idempotencyKey: '' });
  assert.equal(empty.body.error.field, 'idempotencyKey');
  for (const notAString of [5, true, { k: 1 }, ['k']]) {
    const r = await callTool(c, 'create_test_note', { name: 'm', idempotencyKey: notAString });
    assert.equal(r.isError, true);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, 'idempotencyKey');
  }
});

test('4.6 rule 4: tools that take idempotencyKey advertise it in their input schema', async () => {
  const c = await s.mcp(KEYS.admin);
  const { tools } = await c.listTools();
  const t = tools.find((x) => x.name === 'create_test_note')!;
  assert.ok((t.inputSchema.properties as Record<string, unknown>).idempotencyKey);
});
