// Subscriptions: v3 /v3/webhooks (spec v3 4.7, 5.6, 6) and the legacy
// /api/web-hook/* routes (legacy spec 2, 4.7, 5, 7).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const TARGET = 'https://example.test/hook';
const FILE_FIELD = '22000000-0000-4000-8000-000000000105'; // Signed agreement (File Upload)
const SHORT_FIELD = '22000000-0000-4000-8000-000000000101'; // Employee ID (Short Text)
const NOWHERE = '99999999-0000-4000-8000-000000000000';

test('6 POST /v3/webhooks: every event with an allowed scope is created (201) and listed', async () => {
  const cases = [
    { eventType: 'new_checklist', scope: { type: 'Template', key: DEMO.onboarding } },
    { eventType: 'task_completed', scope: { type: 'Task', key: DEMO.tasks.collectDetails } },
    { eventType: 'task_completed', scope: { type: 'Task', key: DEMO.renewInsurance } },
    { eventType: 'task_completed', scope: { type: 'Template', key: DEMO.onboarding } },
    { eventType: 'task_completed', scope: { type: 'Workspace' } },
    { eventType: 'file_uploaded', scope: { type: 'Field', key: FILE_FIELD } },
    { eventType: 'checklist_completed', scope: { type: 'Template', key: DEMO.expense } },
    { eventType: 'checklist_completed', scope: { type: 'Workspace' } },
    { eventType: 'comment_created', scope: { type: 'Task', key: DEMO.tasks.setUpEquipment } },
    { eventType: 'comment_created', scope: { type: 'Workspace' } },
    { eventType: 'task_assigned', scope: { type: 'Task', key: DEMO.tasks.setUpEquipment } },
    { eventType: 'task_assigned', scope: { type: 'Template', key: DEMO.onboarding } },
    { eventType: 'task_assigned', scope: { type: 'Workspace' } },
    { eventType: 'data_set.record.created', scope: { type: 'Workspace' } },
    { eventType: 'data_set.record.updated', scope: { type: 'Workspace' } },
    { eventType: 'data_set.record.deleted' },
  ];
  const ids: string[] = [];
  for (const c of cases) {
    const r = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { ...c, targetUrl: TARGET });
    assert.equal(r.status, 201, `${c.eventType} ${JSON.stringify(c.scope)}: ${r.text}`);
    assert.equal(r.body.eventType, c.eventType);
    assert.equal(r.body.targetUrl, TARGET);
    assert.deepEqual(r.body.scope, c.scope ?? { type: 'Workspace' });
    assert.equal(r.body.hasSecret, false);
    assert.equal(r.body.isActive, true);
    assert.match(r.body.id, /^[0-9a-f-]{36}$/);
    assert.match(r.body.createdDateTime, /Z$/);
    ids.push(r.body.id);
  }
  const list = await s.api(KEYS.workspace, 'GET', '/v3/webhooks?pageSize=100');
  assert.equal(list.status, 200);
  for (const id of ids) assert.ok(list.body.items.some((w: { id: string }) => w.id === id));
  assert.equal(list.body.hasMore, false);
  for (const id of ids) assert.equal((await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${id}`)).status, 204);
});

test('6 POST /v3/webhooks: the secret is write-only (hasSecret true, never echoed)', async () => {
  const r = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Workspace' }, secret: 's3cret' });
  assert.equal(r.status, 201);
  assert.equal(r.body.hasSecret, true);
  assert.ok(!r.text.includes('s3cret'));
  const list = await s.api(KEYS.admin, 'GET', '/v3/webhooks');
  assert.ok(!list.text.includes('s3cret'));
  await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${r.body.id}`);
});

test('6 POST /v3/webhooks: refusals are 400 VALIDATION_ERROR with field', async () => {
  const rows: [string, unknown, string][] = [
    ['unknown event', { eventType: 'task_deleted', targetUrl: TARGET, scope: { type: 'Workspace' } }, 'eventType'],
    ['missing event', { targetUrl: TARGET, scope: { type: 'Workspace' } }, 'eventType'],
    ['missing url', { eventType: 'task_completed', scope: { type: 'Workspace' } }, 'targetUrl'],
    ['ftp url', { eventType: 'task_completed', targetUrl: 'ftp://example.test/x', scope: { type: 'Workspace' } }, 'targetUrl'],
    ['relative url', { eventType: 'task_completed', targetUrl: '/hook', scope: { type: 'Workspace' } }, 'targetUrl'],
    ['javascript url', { eventType: 'task_completed', targetUrl: 'javascript:alert(1)', scope: { type: 'Workspace' } }, 'targetUrl'],
    ['unknown scope type', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Checklist', key: DEMO.janeDoe } }, 'scope.type'],
    ['Workspace scope for new_checklist', { eventType: 'new_checklist', targetUrl: TARGET, scope: { type: 'Workspace' } }, 'scope.type'],
    ['no scope for new_checklist', { eventType: 'new_checklist', targetUrl: TARGET }, 'scope'],
    ['Task scope for checklist_completed', { eventType: 'checklist_completed', targetUrl: TARGET, scope: { type: 'Task', key: DEMO.tasks.collectDetails } }, 'scope.type'],
    ['Template scope for comment_created', { eventType: 'comment_created', targetUrl: TARGET, scope: { type: 'Template', key: DEMO.onboarding } }, 'scope.type'],
    ['Template scope for a data set event', { eventType: 'data_set.record.created', targetUrl: TARGET, scope: { type: 'Template', key: DEMO.onboarding } }, 'scope.type'],
    ['Task scope for file_uploaded', { eventType: 'file_uploaded', targetUrl: TARGET, scope: { type: 'Task', key: DEMO.tasks.contractorAgreement } }, 'scope.type'],
    ['Field scope for task_completed', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Field', key: FILE_FIELD } }, 'scope.type'],
    ['key missing', { eventType: 'new_checklist', targetUrl: TARGET, scope: { type: 'Template' } }, 'scope.key'],
    ['key on Workspace', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Workspace', key: DEMO.onboarding } }, 'scope.key'],
    ['key not a GUID', { eventType: 'new_checklist', targetUrl: TARGET, scope: { type: 'Template', key: 'onboarding' } }, 'scope.key'],
    ['template key naming nothing', { eventType: 'new_checklist', targetUrl: TARGET, scope: { type: 'Template', key: NOWHERE } }, 'scope.key'],
    ["another workspace's template", { eventType: 'new_checklist', targetUrl: TARGET, scope: { type: 'Template', key: DEMO.globexAudit } }, 'scope.key'],
    ['task key naming nothing', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Task', key: NOWHERE } }, 'scope.key'],
    ['a checklist key as task key', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Task', key: DEMO.janeDoe } }, 'scope.key'],
    ['field key naming nothing', { eventType: 'file_uploaded', targetUrl: TARGET, scope: { type: 'Field', key: NOWHERE } }, 'scope.key'],
    ['field key of a Short Text', { eventType: 'file_uploaded', targetUrl: TARGET, scope: { type: 'Field', key: SHORT_FIELD } }, 'scope.key'],
    ['empty secret', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Workspace' }, secret: '' }, 'secret'],
    ['secret not a string', { eventType: 'task_completed', targetUrl: TARGET, scope: { type: 'Workspace' }, secret: 42 }, 'secret'],
  ];
  const before = (await s.api(KEYS.admin, 'GET', '/v3/webhooks')).body.total;
  for (const [what, body, field] of rows) {
    const r = await s.api(KEYS.admin, 'POST', '/v3/webhooks', body);
    assert.equal(r.status, 400, `${what}: ${r.text}`);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR', what);
    assert.equal(r.body.error.field, field, `${what}: ${r.body.error.message}`);
  }
  const bad = await s.api(KEYS.admin, 'POST', '/v3/webhooks', '{not json');
  assert.equal(bad.status, 400);
  // A refused write changes nothing.
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/webhooks')).body.total, before);
});

test('5.6 every webhook route refuses a member key with 403 FORBIDDEN before any lookup', async () => {
  for (const [method, path, body] of [
    ['GET', '/v3/webhooks', undefined],
    ['POST', '/v3/webhooks', { eventType: 'nonsense' }],
    ['DELETE', `/v3/webhooks/${NOWHERE}`, undefined],
    ['DELETE', '/v3/webhooks/not-a-guid', undefined],
  ] as const) {
    for (const key of [KEYS.member, KEYS.noperm]) {
      const r = await s.api(key, method, path, body);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.error.code, 'FORBIDDEN');
    }
  }
  // The owner (Administrator) and the workspace key pass.
  assert.equal((await s.api(KEYS.owner, 'GET', '/v3/webhooks')).status, 200);
  assert.equal((await s.api(KEYS.workspace, 'GET', '/v3/webhooks')).status, 200);
});

test('6 DELETE /v3/webhooks/{id}: 204, then 404 WEBHOOK_NOT_FOUND; bad id 400; other workspace 404', async () => {
  const r = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: TARGET });
  assert.equal(r.status, 201);
  assert.equal((await s.api(KEYS.globexAdmin, 'DELETE', `/v3/webhooks/${r.body.id}`, undefined, {}, s.eu)).status, 404);
  assert.equal((await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${r.body.id}`)).status, 204);
  const again = await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${r.body.id}`);
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, 'WEBHOOK_NOT_FOUND');
  const bad = await s.api(KEYS.admin, 'DELETE', '/v3/webhooks/nope');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.field, 'id');
});

test('6 GET /v3/webhooks: pages, filters by eventType, another workspace sees none of ours', async () => {
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push((await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'comment_created', targetUrl: `${TARGET}/${i}` })).body.id);
  const p1 = await s.api(KEYS.admin, 'GET', '/v3/webhooks?eventType=comment_created&pageSize=2');
  assert.equal(p1.body.items.length, 2);
  assert.equal(p1.body.hasMore, true);
  assert.equal(p1.body.total, 3);
  const p2 = await s.api(KEYS.admin, 'GET', `/v3/webhooks?eventType=comment_created&pageSize=2&after=${p1.body.nextCursor}`);
  assert.equal(p2.body.items.length, 1);
  assert.equal(p2.body.hasMore, false);
  const g = await s.api(KEYS.globexAdmin, 'GET', '/v3/webhooks', undefined, {}, s.eu);
  assert.equal(g.body.total, 0);
  const badType = await s.api(KEYS.admin, 'GET', '/v3/webhooks?eventType=nope');
  assert.equal(badType.body.error.field, 'eventType');
  for (const id of made) await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${id}`);
});

// ── legacy (legacy spec 4.7) ──────────────────────────────────────────────

const legacy = (key: string | null, method: string, pathAndQuery: string, headers: Record<string, string> = {}) => s.api(key, method, pathAndQuery, undefined, headers);
const qs = (o: Record<string, string>) => new URLSearchParams(o).toString();

test('legacy 4.7 subscribe: per-event keys, 200 subscription in the legacy shape', async () => {
  const nc = await legacy(KEYS.admin, 'POST', `/api/web-hook/subscribe?${qs({ source: 'Zapier', eventType: 'new_checklist', targetUrl: TARGET, templateKey: DEMO.onboarding })}`);
  assert.equal(nc.status, 200, nc.text);
  assert.deepEqual(Object.keys(nc.body), ['id', 'source', 'eventType', 'targetURL', 'isActive', 'templateKey']);
  assert.equal(nc.body.source, 'Zapier');
  assert.equal(nc.body.targetURL, TARGET);
  assert.equal(nc.body.isActive, true);
  const both = await legacy(KEYS.admin, 'POST', `/api/web-hook/subscribe?${qs({ source: 'Zapier', eventType: 'task_completed', targetUrl: TARGET, templateKey: DEMO.onboarding, taskKey: DEMO.tasks.collectDetails })}`);
  assert.equal(both.status, 200);
  assert.equal(both.body.templateKey, DEMO.onboarding);
  assert.equal(both.body.taskKey, DEMO.tasks.collectDetails);
  const any = await legacy(KEYS.workspace, 'POST', `/api/web-hook/subscribe?${qs({ source: 'Make', eventType: 'task_completed', targetUrl: TARGET })}`);
  assert.equal(any.status, 200);
  assert.deepEqual(Object.keys(any.body), ['id', 'source', 'eventType', 'targetURL', 'isActive']);
  const file = await legacy(KEYS.admin, 'POST', `/api/web-hook/subscribe?${qs({ source: 'Zapier', eventType: 'file_uploaded', targetUrl: TARGET, taskContentKey: FILE_FIELD })}`);
  assert.equal(file.status, 200);
  assert.equal(file.body.taskContentKey, FILE_FIELD);
  const ds = await legacy(KEYS.admin, 'POST', `/api/web-hook/subscribe?${qs({ source: 'Zapier', eventType: 'data_set.record.updated', targetUrl: TARGET })}`);
  assert.equal(ds.status, 200);

  // Listed by the legacy route (with filters) and by v3.
  const all = await legacy(KEYS.admin, 'GET', '/api/web-hook/subscriptions');
  assert.equal(all.status, 200);
  assert.ok(all.body.length >= 5);
  const zap = await legacy(KEYS.admin, 'GET', `/api/web-hook/subscriptions?${qs({ source: 'zapier', eventType: 'task_completed' })}`);
  assert.deepEqual(
    zap.body.map((x: { id: string }) => x.id),
    [both.body.id],
  );
  const v3 = await s.api(KEYS.admin, 'GET', '/v3/webhooks?pageSize=100');
  const seen = v3.body.items.find((w: { id: string }) => w.id === both.body.id);
  assert.equal(seen.api, 'v2');
  assert.equal(seen.source, 'Zapier');

  for (const x of [nc, both, any, file, ds]) {
    const r = await legacy(KEYS.admin, 'DELETE', `/api/web-hook/unsubscribe?subscriptionId=${x.body.id}`);
    assert.equal(r.status, 200);
  }
  const none = await legacy(KEYS.admin, 'GET', '/api/web-hook/subscriptions?source=Zapier');
  assert.equal(none.status, 404, 'legacy 7: 404 on a list route means nothing matched');
});

test('legacy 4.7 subscribe: 400 for missing or invalid eventType, missing required key, bad keys or URL', async () => {
  const base = { source: 'Zapier', targetUrl: TARGET };
  const rows: [string, Record<string, string>][] = [
    ['no eventType', { ...base }],
    ['bad eventType', { ...base, eventType: 'task_deleted' }],
    ['v3-only event', { ...base, eventType: 'comment_created' }],
    ['new_checklist without templateKey', { ...base, eventType: 'new_checklist' }],
    ['file_uploaded without taskContentKey', { ...base, eventType: 'file_uploaded' }],
    ['templateKey not a GUID', { ...base, eventType: 'new_checklist', templateKey: 'x' }],
    ['templateKey naming nothing', { ...base, eventType: 'new_checklist', templateKey: NOWHERE }],
    ['taskKey naming nothing', { ...base, eventType: 'task_completed', taskKey: NOWHERE }],
    ['taskContentKey of a Short Text', { ...base, eventType: 'file_uploaded', taskContentKey: SHORT_FIELD }],
    ['no source', { eventType: 'task_completed', targetUrl: TARGET }],
    ['no targetUrl', { source: 'Zapier', eventType: 'task_completed' }],
    ['bad targetUrl', { source: 'Zapier', eventType: 'task_completed', targetUrl: 'mailto:a@b.c' }],
  ];
  for (const [what, q] of rows) {
    const r = await legacy(KEYS.admin, 'POST', `/api/web-hook/subscribe?${qs(q)}`);
    assert.equal(r.status, 400, `${what}: ${r.text}`);
    assert.equal(typeof r.body.error, 'string', what);
  }
  const bad = await legacy(KEYS.admin, 'DELETE', '/api/web-hook/unsubscribe?subscriptionId=123');
  assert.equal(bad.status, 400);
  const missing = await legacy(KEYS.admin, 'DELETE', '/api/web-hook/unsubscribe');
  assert.equal(missing.status, 400);
  const badFilter = await legacy(KEYS.admin, 'GET', '/api/web-hook/subscriptions?eventType=nope');
  assert.equal(badFilter.status, 400);
});

test('legacy 5: any bad key is 401 without distinguishing; member keys are refused (403) on webhook routes', async () => {
  for (const key of [null, '', 'no-such-key', KEYS.revoked, KEYS.expired, KEYS.unavailable]) {
    const r = await legacy(key, 'GET', '/api/web-hook/subscriptions');
    assert.equal(r.status, 401, String(key));
    assert.deepEqual(r.body, { error: 'The API key is missing or invalid.' });
  }
  const m = await legacy(KEYS.member, 'POST', `/api/web-hook/subscribe?${qs({ source: 'x', eventType: 'nope', targetUrl: TARGET })}`);
  assert.equal(m.status, 403);
  // The legacy API is not regional: an EU key works on the US address and the reverse.
  assert.notEqual((await legacy(KEYS.globexAdmin, 'GET', '/api/web-hook/subscriptions')).status, 401);
  assert.notEqual((await s.api(KEYS.admin, 'GET', '/api/web-hook/subscriptions', undefined, {}, s.eu)).status, 421);
});

test('legacy 9: X-API-VERSION 1.0 and 2.0 are accepted, others are 400; paths are case-insensitive', async () => {
  for (const v of ['1.0', '2.0', '1', '2']) {
    const r = await legacy(KEYS.admin, 'GET', '/api/web-hook/subscriptions', { 'X-API-VERSION': v });
    assert.ok(r.status === 200 || r.status === 404, `${v}: ${r.status}`);
  }
  const r = await legacy(KEYS.admin, 'GET', '/api/web-hook/subscriptions', { 'X-API-VERSION': '3.0' });
  assert.equal(r.status, 400);
  const mixed = await legacy(KEYS.admin, 'GET', '/api/Web-Hook/Subscriptions');
  assert.ok(mixed.status === 200 || mixed.status === 404);
  const wrongMethod = await legacy(KEYS.admin, 'PUT', '/api/web-hook/subscribe');
  assert.equal(wrongMethod.status, 405);
});
