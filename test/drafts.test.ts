// Template drafts (spec v3 4.4 rule 4, 4.1 rule 8, 8 cheap routes) on REST and MCP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, KEYS, DEMO, type TestServer } from './helpers/server';
import { setRights, smallDoc } from './helpers/templates';
import { mergePatch } from '../src/domain/drafts/merge-patch';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

async function poll(key: string, apiKey: string = KEYS.admin): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const r = await s.api(apiKey, 'GET', `/v3/drafts/${key}/commit`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ratelimit-bucket'), 'cheap');
    if (r.body.state !== 'pending') return r.body;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('commit never finished');
}

test('4.1 rule 8: JSON Merge Patch (RFC 7386) examples', () => {
  assert.deepEqual(mergePatch({ a: 'b' }, { a: 'c' }), { a: 'c' });
  assert.deepEqual(mergePatch({ a: 'b' }, { b: 'c' }), { a: 'b', b: 'c' });
  assert.deepEqual(mergePatch({ a: 'b' }, { a: null }), {});
  assert.deepEqual(mergePatch({ a: 'b', b: 'c' }, { a: null }), { b: 'c' });
  assert.deepEqual(mergePatch({ a: ['b'] }, { a: 'c' }), { a: 'c' });
  assert.deepEqual(mergePatch({ a: 'c' }, { a: ['b'] }), { a: ['b'] });
  assert.deepEqual(mergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } }), { a: { b: 'd' } });
  assert.deepEqual(mergePatch({ a: [{ b: 'c' }] }, { a: [1] }), { a: [1] });
  assert.deepEqual(mergePatch(['a', 'b'], ['c', 'd']), ['c', 'd']);
  assert.deepEqual(mergePatch({ a: 'b' }, ['c']), ['c']);
  assert.deepEqual(mergePatch({ e: null }, { a: 1 }), { e: null, a: 1 });
  assert.deepEqual(mergePatch([1, 2], { a: 'b', c: null }), { a: 'b' });
  assert.deepEqual(mergePatch({}, { a: { bb: { ccc: null } } }), { a: { bb: {} } });
});

test('4.4 rule 4: empty draft, merge patch (arrays replace whole), validate (cheap), commit polled, creates a template', async () => {
  const created = await s.api(KEYS.admin, 'POST', '/v3/drafts');
  assert.equal(created.status, 201);
  const key = created.body.key;
  assert.deepEqual(created.body.document, { name: 'Untitled template', tasks: [] });
  assert.equal(created.body.template, undefined);
  assert.equal(created.body.createdBy.name, 'Ada Admin');

  const p1 = await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${key}`, { name: 'Drafted', description: 'via drafts', tasks: [{ ref: 'a', name: 'A' }, { ref: 'b', name: 'B' }] });
  assert.equal(p1.status, 200);
  const p2 = await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${key}`, { description: null, tasks: [{ ref: 'a', name: 'A', fields: [{ type: 'Nope' }] }] }, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(p2.status, 200);
  assert.deepEqual(p2.body.document, { name: 'Drafted', tasks: [{ ref: 'a', name: 'A', fields: [{ type: 'Nope' }] }] });

  const v = await s.api(KEYS.admin, 'POST', `/v3/drafts/${key}/validate`);
  assert.equal(v.headers.get('x-ratelimit-bucket'), 'cheap');
  assert.equal(v.body.valid, false);
  assert.equal(v.body.violations[0].path, '$.tasks[0].fields[0].type');

  // Committing an invalid draft: accepted (202), then failed with the violations.
  const c1 = await s.api(KEYS.admin, 'POST', `/v3/drafts/${key}/commit`);
  assert.equal(c1.status, 202);
  assert.equal(c1.body.state, 'pending');
  assert.ok(c1.headers.get('location')!.endsWith(`/v3/drafts/${key}/commit`));
  const failed = await poll(key);
  assert.equal(failed.state, 'failed');
  assert.equal(failed.error.code, 'TEMPLATE_INVALID');
  assert.equal(failed.violations[0].code, 'unknown_content_type');

  await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${key}`, { tasks: [{ ref: 'a', name: 'A', fields: [{ ref: 'f', type: 'ShortText', label: 'F' }] }] });
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/drafts/${key}/commit`)).status, 202);
  const ok = await poll(key);
  assert.equal(ok.state, 'succeeded');
  assert.equal(ok.version, 1);
  const t = await s.api(KEYS.admin, 'GET', `/v3/templates/${ok.templateKey}`);
  assert.equal(t.body.name, 'Drafted');
  // The draft now follows the template: ids in its document, next commit publishes version 2 with the same keys.
  const d = await s.api(KEYS.admin, 'GET', `/v3/drafts/${key}`);
  assert.equal(d.body.template.key, ok.templateKey);
  assert.equal(d.body.document.tasks[0].id, t.body.tasks[0].key);
  await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${key}`, { name: 'Drafted v2' });
  await s.api(KEYS.admin, 'POST', `/v3/drafts/${key}/commit`);
  const ok2 = await poll(key);
  assert.equal(ok2.version, 2);
  const t2 = await s.api(KEYS.admin, 'GET', `/v3/templates/${ok.templateKey}`);
  assert.equal(t2.body.tasks[0].fields[0].key, t.body.tasks[0].fields[0].key);

  assert.equal((await s.api(KEYS.admin, 'DELETE', `/v3/drafts/${key}`)).status, 204);
  const gone = await s.api(KEYS.admin, 'GET', `/v3/drafts/${key}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'DRAFT_NOT_FOUND');
});

test('4.4 rule 4: a draft from a template version commits as a new version keeping keys', async () => {
  const r = await s.api(KEYS.admin, 'POST', '/v3/drafts', { templateKey: DEMO.expense, version: 1 });
  assert.equal(r.status, 201);
  assert.equal(r.body.template.key, DEMO.expense);
  assert.equal(r.body.template.version, 1);
  assert.equal(r.body.document.tasks[0].id, DEMO.tasks.submitReceipts);
  const tasks = [...r.body.document.tasks, { ref: 'archive', name: 'Archive the receipts' }];
  await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${r.body.key}`, { tasks });
  const v = await s.api(KEYS.admin, 'POST', `/v3/drafts/${r.body.key}/validate`);
  assert.equal(v.body.valid, true);
  await s.api(KEYS.admin, 'POST', `/v3/drafts/${r.body.key}/commit`);
  const done = await poll(r.body.key);
  assert.equal(done.state, 'succeeded');
  assert.equal(done.templateKey, DEMO.expense);
  assert.equal(done.version, 2);
  const t = await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.expense}`);
  assert.equal(t.body.tasks[0].key, DEMO.tasks.submitReceipts);
  assert.equal(t.body.tasks.length, 4);
});

test('drafts over MCP: the seven tools answer like REST', async () => {
  const c = await s.mcp(KEYS.admin);
  const made = await callTool(c, 'create_template_draft', { document: smallDoc('MCP Draft') });
  assert.equal(made.isError, false);
  const key = made.body.key;
  const got = await callTool(c, 'get_template_draft', { key });
  assert.deepEqual(got.body, (await s.api(KEYS.admin, 'GET', `/v3/drafts/${key}`)).body);
  const patched = await callTool(c, 'update_template_draft', { key, patch: { description: 'patched' } });
  assert.equal(patched.body.document.description, 'patched');
  const v = await callTool(c, 'validate_template_draft', { key });
  assert.deepEqual(v.body, (await s.api(KEYS.admin, 'POST', `/v3/drafts/${key}/validate`)).body);
  const none = await callTool(c, 'get_commit_status', { key });
  assert.equal(none.isError, true);
  assert.equal(none.body.error.code, 'COMMIT_NOT_FOUND');
  const commit = await callTool(c, 'commit_template_draft', { key });
  assert.equal(commit.body.state, 'pending');
  const done = await poll(key);
  const status = await callTool(c, 'get_commit_status', { key });
  assert.deepEqual(status.body, done);
  const del = await callTool(c, 'delete_template_draft', { key });
  assert.deepEqual(del.body, { result: null });
  const after = await callTool(c, 'get_template_draft', { key });
  const rest = await s.api(KEYS.admin, 'GET', `/v3/drafts/${key}`);
  assert.deepEqual(withoutRequestId(after.body), withoutRequestId(rest.body));
});

test('drafts: refusals (400 bad key and body, 404, 403 other member, 403 commit without rights, 403 Deny source)', async () => {
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/drafts/abc')).body.error.field, 'key');
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/drafts/60000000-0000-4000-8000-000000000000')).status, 404);
  assert.equal((await s.api(KEYS.admin, 'POST', '/v3/drafts', { version: 1 })).body.error.field, 'version');
  assert.equal((await s.api(KEYS.admin, 'POST', '/v3/drafts', { templateKey: DEMO.expense, document: {} })).body.error.field, 'document');
  assert.equal((await s.api(KEYS.admin, 'POST', '/v3/drafts', { templateKey: DEMO.expense, version: 0 })).body.error.field, 'version');
  assert.equal((await s.api(KEYS.admin, 'POST', '/v3/drafts', { templateKey: DEMO.expense, version: 9 })).status, 404);
  assert.equal((await s.api(KEYS.noperm, 'POST', '/v3/drafts', { templateKey: DEMO.vendor })).status, 403);

  const mine = await s.api(KEYS.noperm, 'POST', '/v3/drafts', { document: smallDoc('Nora Draft') });
  assert.equal(mine.status, 201);
  const key = mine.body.key;
  const other = await s.api(KEYS.member, 'GET', `/v3/drafts/${key}`);
  assert.equal(other.status, 403);
  assert.match(other.body.error.message, /Nora Noperm/);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/drafts/${key}`)).status, 200);
  assert.ok((await s.api(KEYS.noperm, 'GET', '/v3/drafts')).body.items.some((d: { key: string }) => d.key === key));
  assert.ok(!(await s.api(KEYS.member, 'GET', '/v3/drafts')).body.items.some((d: { key: string }) => d.key === key));

  const commit = await s.api(KEYS.noperm, 'POST', `/v3/drafts/${key}/commit`);
  assert.equal(commit.status, 403);
  assert.match(commit.body.error.message, /Template\.Creator/);
  assert.equal((await s.api(KEYS.noperm, 'GET', `/v3/drafts/${key}/commit`)).status, 404);

  // A member with Template.Creator but only View on the template's folder cannot commit a draft of it.
  setRights(s, DEMO.members.mia, ['Template.Creator']);
  try {
    const d = await s.api(KEYS.member, 'POST', '/v3/drafts', { templateKey: DEMO.vendor });
    assert.equal(d.status, 201);
    const c = await s.api(KEYS.member, 'POST', `/v3/drafts/${d.body.key}/commit`);
    assert.equal(c.status, 403);
    assert.match(c.body.error.message, /View/);
  } finally {
    setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
  }
  const deep = await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${key}`, '{"a":'.repeat(100) + '1' + '}'.repeat(100));
  assert.equal(deep.status, 400);
  assert.equal(deep.body.error.field, 'patch');
  const noBody = await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${key}`);
  assert.equal(noBody.status, 400);
});

test('drafts: a patch that is not an object replaces the document, and validation reports it', async () => {
  const d = await s.api(KEYS.admin, 'POST', '/v3/drafts');
  const p = await s.api(KEYS.admin, 'PATCH', `/v3/drafts/${d.body.key}`, [1, 2]);
  assert.deepEqual(p.body.document, [1, 2]);
  const v = await s.api(KEYS.admin, 'POST', `/v3/drafts/${d.body.key}/validate`);
  assert.deepEqual(v.body.violations.map((x: { path: string; code: string }) => [x.path, x.code]), [['$', 'invalid_type']]);
});
