// Corners of the v3 task rules where the emulator once answered differently from the spec
// (spec v3 2.4, 4.1, 5.4, 5.8, 5.10). Each test is named after the sentence it enforces.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, DEMO, KEYS, type TestServer } from './helpers/server';
import { MISSING, T, newChecklist, refused, taskPath } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

test('5.8 "Delete a comment | its author or an Administrator": an author who cannot see the checklist deletes her own comment (REST and MCP)', async () => {
  const key = await newChecklist(s, { name: 'Author deletes' });
  const p = taskPath(key, T.collectDetails, '/comments');
  // Nora has no permission on Onboarding: she may comment (any key may, 5.8) but not read.
  assert.equal((await s.api(KEYS.noperm, 'GET', p)).status, 403);
  const one = await s.api(KEYS.noperm, 'POST', p, { text: 'mine' });
  const two = await s.api(KEYS.noperm, 'POST', p, { text: 'mine too' });
  assert.equal(one.status, 201, one.text);
  assert.equal(two.status, 201, two.text);
  const del = await s.api(KEYS.noperm, 'DELETE', `${p}/${one.body.id}`);
  assert.equal(del.status, 204, del.text);
  const c = await s.mcp(KEYS.noperm);
  const m = await callTool(c, 'remove_task_comment', { checklistKey: key, taskKey: T.collectDetails, commentId: two.body.id });
  assert.equal(m.isError, false, m.text);
  const left = await s.api(KEYS.admin, 'GET', p);
  assert.deepEqual(left.body.comments.map((x: { id: number }) => x.id).filter((id: number) => id === one.body.id || id === two.body.id), []);
});

test('5.8 "Delete a comment | its author or an Administrator": anyone else is refused 403 FORBIDDEN, REST and MCP alike', async () => {
  const key = await newChecklist(s, { name: 'Not the author' });
  const p = taskPath(key, T.collectDetails, '/comments');
  const admins = await s.api(KEYS.admin, 'POST', p, { text: 'the admin wrote this' });
  const rest = await refused(s, () => s.api(KEYS.noperm, 'DELETE', `${p}/${admins.body.id}`), 403, 'FORBIDDEN');
  await refused(s, () => s.api(KEYS.member, 'DELETE', `${p}/${admins.body.id}`), 403, 'FORBIDDEN');
  const c = await s.mcp(KEYS.noperm);
  const m = await callTool(c, 'remove_task_comment', { checklistKey: key, taskKey: T.collectDetails, commentId: admins.body.id });
  assert.equal(m.isError, true);
  assert.deepEqual(withoutRequestId(m.body), withoutRequestId(rest));
});

test('5.10 "the resource is looked up first, so another workspace\'s resource is 404, never 403": snoozes with a workspace key (REST and MCP)', async () => {
  const globexTasks = await s.api(KEYS.globexAdmin, 'GET', `/v3/checklists/${DEMO.globexChecklist}/tasks`, undefined, {}, s.eu);
  assert.equal(globexTasks.status, 200, globexTasks.text);
  const globexTask = (globexTasks.body.items ?? globexTasks.body.tasks)[0].key;
  const c = await s.mcp(KEYS.workspace);
  const cases: { path: string; tool: Record<string, unknown>; status: number; code: string; field?: string }[] = [
    { path: taskPath(DEMO.globexChecklist, globexTask, '/snooze'), tool: { checklistKey: DEMO.globexChecklist, taskKey: globexTask }, status: 404, code: 'CHECKLIST_NOT_FOUND' },
    { path: taskPath(MISSING, T.collectDetails, '/snooze'), tool: { checklistKey: MISSING, taskKey: T.collectDetails }, status: 404, code: 'CHECKLIST_NOT_FOUND' },
    { path: taskPath(DEMO.janeDoe, MISSING, '/snooze'), tool: { checklistKey: DEMO.janeDoe, taskKey: MISSING }, status: 404, code: 'TASK_NOT_FOUND' },
    { path: taskPath('not-a-key', T.collectDetails, '/snooze'), tool: { checklistKey: 'not-a-key', taskKey: T.collectDetails }, status: 400, code: 'VALIDATION_ERROR', field: 'checklistKey' },
    { path: '/v3/tasks/not-a-key/snooze', tool: {}, status: 400, code: 'VALIDATION_ERROR', field: 'taskKey' },
    { path: `/v3/tasks/${MISSING}/snooze`, tool: {}, status: 404, code: 'TASK_NOT_FOUND' },
  ];
  for (const k of cases) {
    for (const [method, tool, body] of [
      ['GET', 'get_task_snooze', undefined],
      ['PUT', 'set_task_snooze', { snoozedUntil: '2099-01-01T00:00:00Z' }],
      ['DELETE', 'end_task_snooze', undefined],
    ] as const) {
      const r = await refused(s, () => s.api(KEYS.workspace, method, k.path, body), k.status, k.code, k.field);
      if (!('checklistKey' in k.tool)) continue;
      const m = await callTool(c, tool, { ...k.tool, ...(body ?? {}) });
      assert.equal(m.isError, true, `${tool} ${k.path}`);
      assert.deepEqual(withoutRequestId(m.body), withoutRequestId({ error: r.error }), `${tool} ${k.path}`);
    }
  }
});

test('5.8 "Snooze | a member key … | 403 API_KEY_ACTS_AS_WORKSPACE": an existing task of the workspace is refused for the workspace key (REST and MCP)', async () => {
  const key = await newChecklist(s, { name: 'Workspace snooze' });
  const p = taskPath(key, T.managerApproval, '/snooze');
  const c = await s.mcp(KEYS.workspace);
  for (const [method, tool, body] of [
    ['GET', 'get_task_snooze', undefined],
    ['PUT', 'set_task_snooze', { snoozedUntil: '2099-01-01T00:00:00Z' }],
    ['DELETE', 'end_task_snooze', undefined],
  ] as const) {
    const r = await refused(s, () => s.api(KEYS.workspace, method, p, body), 403, 'API_KEY_ACTS_AS_WORKSPACE');
    const m = await callTool(c, tool, { checklistKey: key, taskKey: T.managerApproval, ...(body ?? {}) });
    assert.deepEqual(withoutRequestId(m.body), withoutRequestId(r));
  }
  const raised = await s.api(KEYS.workspace, 'POST', '/v3/tasks', { name: 'Workspace raised' });
  assert.equal(raised.status, 201, raised.text);
  await refused(s, () => s.api(KEYS.workspace, 'PUT', `/v3/tasks/${raised.body.key}/snooze`, { snoozedUntil: '2099-01-01T00:00:00Z' }), 403, 'API_KEY_ACTS_AS_WORKSPACE');
});
