// Snoozes in bulk (spec v3 3 "snoozed", 4.5, 4.6 snooze_tasks / end_snooze_tasks, 5.8, 8):
// the life cycle on the emulator clock, and every refusal, on REST and MCP.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, callTool, withoutRequestId, type TestServer } from './helpers/server';
import { refused } from './helpers/checklists';

let s: TestServer;
const NOW = Date.parse('2026-03-10T12:00:00Z');
const NOWHERE = '99999999-9999-4999-8999-999999999999';
const collect = { taskKey: DEMO.tasks.collectDetails, checklistKey: DEMO.janeDoe };
const equipment = { taskKey: DEMO.tasks.setUpEquipment, checklistKey: DEMO.janeDoe };

const snooze = (key: string, body: unknown) => s.api(key, 'POST', '/v3/my-work/snooze', body);
const endSnooze = (key: string, body: unknown) => s.api(key, 'DELETE', '/v3/my-work/snooze', body);
const snoozeRows = () => (s.emu.db.prepare('SELECT COUNT(*) AS n FROM snoozes').get() as { n: number }).n;
const activityRows = () => (s.emu.db.prepare('SELECT COUNT(*) AS n FROM activity').get() as { n: number }).n;
const gridKeys = async (key: string, q = '') => {
  const r = await s.api(key, 'GET', `/v3/my-work${q}`);
  assert.equal(r.status, 200, r.text);
  return r.body.items as { key: string; status: string; snoozedUntilDateTime?: string; checklist?: { key: string } }[];
};

before(async () => {
  s = await startTestServer();
  s.emu.clock.set(NOW, true);
});
after(async () => {
  await s.close();
});

test('3, 4.6 snooze_tasks: snoozed tasks leave the default grid, show under Snoozed, and come back when the date passes on the clock', async () => {
  const before = activityRows();
  const r = await snooze(KEYS.member, { snoozedUntil: '2026-03-12T09:00:00+01:00', tasks: [collect, { taskKey: DEMO.renewInsurance }] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    snoozedUntil: '2026-03-12T08:00:00.000Z',
    tasks: [
      { key: DEMO.tasks.collectDetails, checklistKey: DEMO.janeDoe, name: 'Collect employee details', isStandalone: false, isSnoozed: true },
      { key: DEMO.renewInsurance, name: 'Renew insurance', isStandalone: true, isSnoozed: true },
    ],
  });
  assert.equal(activityRows(), before, 'a snooze records no activity');
  const open = await gridKeys(KEYS.member);
  assert.ok(!open.some((i) => i.key === DEMO.renewInsurance));
  assert.ok(!open.some((i) => i.key === DEMO.tasks.collectDetails && i.checklist?.key === DEMO.janeDoe));
  const snoozed = await gridKeys(KEYS.member, '?status=Snoozed');
  assert.deepEqual(
    snoozed.map((i) => [i.key, i.status, i.snoozedUntilDateTime]).sort(),
    [
      [DEMO.tasks.collectDetails, 'Snoozed', '2026-03-12T08:00:00.000Z'],
      [DEMO.renewInsurance, 'Snoozed', '2026-03-12T08:00:00.000Z'],
    ].sort(),
  );
  // Personal: Ada's grid does not change.
  const ada = await gridKeys(KEYS.admin, '?assignee=all&pageSize=100');
  assert.ok(ada.some((i) => i.key === DEMO.renewInsurance));
  // The per-task read agrees.
  const one = await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/snooze`);
  assert.equal(one.body.isSnoozed, true);
  // The date passes: the snooze ends by itself.
  s.emu.clock.set(Date.parse('2026-03-12T08:00:01Z'), true);
  const later = await gridKeys(KEYS.member);
  assert.ok(later.some((i) => i.key === DEMO.renewInsurance && i.status !== 'Snoozed' && i.snoozedUntilDateTime === undefined));
  assert.deepEqual(await gridKeys(KEYS.member, '?status=Snoozed'), []);
  s.emu.clock.set(NOW, true);
  // Until then, end_snooze_tasks ends it; ending one not snoozed succeeds.
  const ended = await endSnooze(KEYS.member, { tasks: [collect, { taskKey: DEMO.renewInsurance }, equipment] });
  assert.equal(ended.status, 200, ended.text);
  assert.deepEqual(
    ended.body.tasks.map((t: { key: string; isSnoozed: boolean }) => [t.key, t.isSnoozed]),
    [
      [DEMO.tasks.collectDetails, false],
      [DEMO.renewInsurance, false],
      [DEMO.tasks.setUpEquipment, false],
    ],
  );
  assert.equal(ended.body.tasks[2].checklistKey, DEMO.janeDoe);
  assert.deepEqual(await gridKeys(KEYS.member, '?status=Snoozed'), []);
  assert.equal(activityRows(), before);
});

test('4.6 snooze_tasks: a standalone task attached to a checklist is named with that checklistKey', async () => {
  const bad = await snooze(KEYS.member, { snoozedUntil: '2026-04-01T00:00:00Z', tasks: [{ taskKey: DEMO.businessCards }] });
  refused(bad, 400, 'VALIDATION_ERROR', 'tasks[0].checklistKey');
  const ok = await snooze(KEYS.member, { snoozedUntil: '2026-04-01T00:00:00Z', tasks: [{ taskKey: DEMO.businessCards, checklistKey: DEMO.janeDoe }] });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.tasks, [{ key: DEMO.businessCards, checklistKey: DEMO.janeDoe, name: 'Order business cards', isStandalone: true, isSnoozed: true }]);
  assert.equal((await endSnooze(KEYS.member, { tasks: [{ taskKey: DEMO.businessCards, checklistKey: DEMO.janeDoe }] })).status, 200);
});

test('4.6, 8 snooze_tasks refusals: each refuses the whole call with its field, nothing written', async () => {
  const until = '2026-04-01T00:00:00Z';
  const many = Array.from({ length: 201 }, () => collect);
  const cases: [unknown, number, string, string | undefined][] = [
    [{ snoozedUntil: until, tasks: many }, 400, 'VALIDATION_ERROR', 'tasks'],
    [{ snoozedUntil: until, tasks: [] }, 400, 'VALIDATION_ERROR', 'tasks'],
    [{ snoozedUntil: until }, 400, 'VALIDATION_ERROR', 'tasks'],
    [{ tasks: [collect] }, 400, 'VALIDATION_ERROR', 'snoozedUntil'],
    [{ snoozedUntil: '2026-03-10T11:59:59Z', tasks: [collect] }, 400, 'VALIDATION_ERROR', 'snoozedUntil'],
    [{ snoozedUntil: '2026-03-10T12:00:00Z', tasks: [collect] }, 400, 'VALIDATION_ERROR', 'snoozedUntil'],
    [{ snoozedUntil: 'tomorrow', tasks: [collect] }, 400, 'VALIDATION_ERROR', 'snoozedUntil'],
    [{ snoozedUntil: until, tasks: [collect, { ...equipment, snoozedUntil: '2026-05-01T00:00:00Z' }] }, 400, 'VALIDATION_ERROR', 'tasks[1].snoozedUntil'],
    [{ snoozedUntil: until, tasks: [collect, { taskKey: 'nope', checklistKey: DEMO.janeDoe }] }, 400, 'VALIDATION_ERROR', 'tasks[1].taskKey'],
    [{ snoozedUntil: until, tasks: [{ taskKey: DEMO.tasks.heading, checklistKey: DEMO.janeDoe }] }, 400, 'VALIDATION_ERROR', 'tasks[0].taskKey'],
    [{ snoozedUntil: until, tasks: [collect, { taskKey: NOWHERE, checklistKey: DEMO.janeDoe }] }, 404, 'TASK_NOT_FOUND', undefined],
    [{ snoozedUntil: until, tasks: [collect, { taskKey: DEMO.tasks.collectDetails }] }, 404, 'TASK_NOT_FOUND', undefined],
    [{ snoozedUntil: until, tasks: [collect, { taskKey: DEMO.tasks.collectDetails, checklistKey: NOWHERE }] }, 404, 'CHECKLIST_NOT_FOUND', undefined],
    [{ snoozedUntil: until, tasks: [collect, { taskKey: DEMO.tasks.collectDetails, checklistKey: DEMO.globexChecklist }] }, 404, 'CHECKLIST_NOT_FOUND', undefined],
  ];
  const c = await s.mcp(KEYS.member);
  for (const [body, status, code, field] of cases) {
    const r = await snooze(KEYS.member, body);
    refused(r, status, code, field);
    assert.equal(snoozeRows(), 0, JSON.stringify(body).slice(0, 200));
    const tool = await callTool(c, 'snooze_tasks', body as Record<string, unknown>);
    assert.equal(tool.isError, true);
    assert.deepEqual(withoutRequestId(tool.body), withoutRequestId(r.body));
    assert.equal(snoozeRows(), 0);
  }
  // A checklist Nora may not see refuses the whole call, her visible task included (5.8).
  const nora = await s.api(KEYS.admin, 'POST', '/v3/tasks', { name: 'For Nora', assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] });
  refused(await snooze(KEYS.noperm, { snoozedUntil: until, tasks: [{ taskKey: nora.body.key }, collect] }), 403, 'FORBIDDEN');
  assert.equal(snoozeRows(), 0);
  refused(await snooze(KEYS.workspace, { snoozedUntil: until, tasks: [collect] }), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  refused(await endSnooze(KEYS.workspace, { tasks: [collect] }), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  const ws = await callTool(await s.mcp(KEYS.workspace), 'end_snooze_tasks', { tasks: [collect] });
  assert.equal(ws.body.error.code, 'API_KEY_ACTS_AS_WORKSPACE');
});

test('4.6 snooze_tasks: 200 tasks is the most, repeats count once; a later call moves the date', async () => {
  const two = [collect, equipment];
  const body = { snoozedUntil: '2026-04-01T00:00:00Z', tasks: Array.from({ length: 200 }, (_, i) => two[i % 2]) };
  const r = await snooze(KEYS.member, body);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.tasks.length, 2);
  assert.equal(snoozeRows(), 2);
  const moved = await snooze(KEYS.member, { snoozedUntil: '2026-05-01T00:00:00Z', tasks: [collect] });
  assert.equal(moved.body.snoozedUntil, '2026-05-01T00:00:00.000Z');
  const rows = await gridKeys(KEYS.member, '?status=Snoozed');
  assert.equal(rows.find((i) => i.key === DEMO.tasks.collectDetails)!.snoozedUntilDateTime, '2026-05-01T00:00:00.000Z');
  assert.equal((await endSnooze(KEYS.member, { tasks: two })).status, 200);
  assert.equal(snoozeRows(), 0);
});

test('4.6 end_snooze_tasks refusals: a reference naming nothing refuses the whole call; lost visibility never does (5.8)', async () => {
  await snooze(KEYS.member, { snoozedUntil: '2026-04-01T00:00:00Z', tasks: [collect] });
  refused(await endSnooze(KEYS.member, { tasks: [collect, { taskKey: NOWHERE, checklistKey: DEMO.janeDoe }] }), 404, 'TASK_NOT_FOUND');
  assert.equal(snoozeRows(), 1, 'nothing ended');
  refused(await endSnooze(KEYS.member, { tasks: Array.from({ length: 201 }, () => collect) }), 400, 'VALIDATION_ERROR', 'tasks');
  refused(await endSnooze(KEYS.member, { tasks: [] }), 400, 'VALIDATION_ERROR', 'tasks');
  refused(await endSnooze(KEYS.member, {}), 400, 'VALIDATION_ERROR', 'tasks');
  // Nora may not see Jane Doe's checklist, yet ending a snooze (her own, none here) is never refused for that.
  const nora = await endSnooze(KEYS.noperm, { tasks: [collect] });
  assert.equal(nora.status, 200, nora.text);
  assert.equal(nora.body.tasks[0].isSnoozed, false);
  assert.equal(snoozeRows(), 1, "Mia's snooze is hers");
  const c = await s.mcp(KEYS.member);
  const tool = await callTool(c, 'end_snooze_tasks', { tasks: [collect] });
  assert.equal(tool.isError, false, tool.text);
  assert.deepEqual(tool.body, { tasks: [{ key: DEMO.tasks.collectDetails, checklistKey: DEMO.janeDoe, name: 'Collect employee details', isStandalone: false, isSnoozed: false }] });
  assert.equal(snoozeRows(), 0);
});
