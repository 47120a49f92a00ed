// Schedules (issue 12 item 4; spec v3 2.1, 4.1 rules 6 and 11, 5.4, 5.5, 5.9, 6.1, 6.3;
// designs in docs/schedules.md): every route and refusal, runs fired by the emulator
// clock exactly once across daylight-saving changes and a restart, and new_checklist
// carrying the scheduler's name.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { setRights } from './helpers/templates';
import { startReceiver, sleep } from './helpers/webhooks';
import { Clock } from '../src/clock';
import { SCHEDULER } from '../src/webhooks/payloads/objects';

const dir = mkdtempSync(join(tmpdir(), 'wfe-schedules-'));
let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const n = (srv: TestServer, sql: string, ...args: unknown[]) => (srv.emu.db.prepare(sql).get(...args) as { n: number }).n;
const setClock = (srv: TestServer, now: string) => srv.api(null, 'PUT', '/_emulator/clock', { now, frozen: true });
const advance = (srv: TestServer, by: Record<string, number>) => srv.api(null, 'POST', '/_emulator/clock/advance', by);

/** Polls the runs list until `done` holds (the scheduler looks at the clock every 50 ms). */
async function runsWhen(srv: TestServer, id: number, done: (runs: Run[]) => boolean, key: string = KEYS.admin): Promise<Run[]> {
  const until = Date.now() + 5000;
  for (;;) {
    const r = await srv.api(key, 'GET', `/v3/schedules/${id}/runs?pageSize=100`);
    assert.equal(r.status, 200, r.text);
    if (done(r.body.items)) return r.body.items;
    if (Date.now() > until) throw new Error(`runs never settled: ${JSON.stringify(r.body.items.map((x: Run) => [x.status, x.scheduledDateTime]))}`);
    await sleep(25);
  }
}

interface Run {
  id: number;
  status: string;
  scheduledDateTime: string;
  scheduledDateTimeUtc: string;
  startedDateTime?: string;
  checklist?: { key: string; status: string };
}

const started = (runs: Run[]) => runs.filter((r) => r.status === 'Started');
const refusedWith = (r: { status: number; body: { error?: { code: string; field?: string } } }, status: number, code: string, field?: string) => {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error?.code, code);
  if (field !== undefined) assert.equal(r.body.error?.field, field);
};

const daily = (over: Record<string, unknown> = {}) => ({
  name: 'Daily check',
  templateKey: DEMO.expense,
  timeZone: 'Europe/Berlin',
  startDateTime: '2030-01-10T09:00:00',
  recurrence: { frequency: 'Daily' },
  ...over,
});

test('4.1 rule 6 create: 201 with wall clock beside the UTC instant; the next run has a Scheduled checklist; get and list answer it', async () => {
  await setClock(s, '2030-01-01T00:00:00Z');
  const r = await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ name: '  Morning expenses ', recurrence: { frequency: 'Weekly', interval: 2, daysOfWeek: ['Friday', 'Monday', 'Friday'], count: 5 } }));
  assert.equal(r.status, 201, r.text);
  const sc = r.body;
  assert.equal(typeof sc.id, 'number', 'schedules have integer ids (2.1)');
  assert.equal(sc.name, 'Morning expenses');
  assert.equal(sc.status, 'Active');
  assert.equal(sc.timeZone, 'Europe/Berlin');
  assert.equal(sc.startDateTime, '2030-01-10T09:00:00');
  assert.equal(sc.startDateTimeUtc, '2030-01-10T08:00:00.000Z');
  assert.deepEqual(sc.recurrence, { frequency: 'Weekly', interval: 2, daysOfWeek: ['Monday', 'Friday'], count: 5 });
  assert.deepEqual(sc.template, { key: DEMO.expense, name: 'Expense Report', url: `${s.us}/app/templates/${DEMO.expense}`, isArchived: false });
  assert.deepEqual(sc.createdBy, { name: 'Ada Admin', email: 'ada@acme.test' });
  // 2030-01-10 is a Thursday: the first run is Friday the 11th, then Monday 21st (every other week).
  assert.equal(sc.nextRun.scheduledDateTime, '2030-01-11T09:00:00');
  assert.equal(sc.nextRun.scheduledDateTimeUtc, '2030-01-11T08:00:00.000Z');

  const runs = await runsWhen(s, sc.id, () => true);
  assert.deepEqual(
    runs.map((x) => x.scheduledDateTime),
    ['2030-01-11T09:00:00', '2030-01-21T09:00:00', '2030-01-25T09:00:00', '2030-02-04T09:00:00', '2030-02-08T09:00:00'],
    'count 5 ends the series',
  );
  assert.ok(runs.every((x) => x.status === 'Upcoming' && typeof x.id === 'number'));
  assert.equal(runs[0].checklist?.status, 'Scheduled');
  assert.equal(runs[1].checklist, undefined, 'only the next run has its checklist yet');
  const c = await s.api(KEYS.admin, 'GET', `/v3/checklists/${runs[0].checklist!.key}`);
  assert.equal(c.status, 200);
  assert.equal(c.body.status, 'Scheduled');
  assert.equal(c.body.name, 'Morning expenses');
  assert.equal(c.body.scheduledDateTime, '2030-01-11T08:00:00.000Z');
  assert.equal(c.body.startDateTime, undefined, 'a Scheduled checklist has not started');

  const g = await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}`);
  assert.equal(g.status, 200);
  assert.deepEqual(g.body, sc);
  const l = await s.api(KEYS.admin, 'GET', '/v3/schedules');
  assert.equal(l.status, 200);
  assert.ok(l.body.items.some((x: { id: number }) => x.id === sc.id));
  assert.equal(l.body.hasMore, false);
  assert.equal(l.body.total, l.body.items.length);
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`);
});

test('4.1 rule 11 list: paged with pageSize and after; templateKey filter; sort; a cursor of another query is 400 field after', async () => {
  await setClock(s, '2030-01-01T00:00:00Z');
  const ids: number[] = [];
  for (const name of ['B sched', 'A sched', 'C sched']) ids.push((await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ name }))).body.id);
  const p1 = await s.api(KEYS.admin, 'GET', '/v3/schedules?pageSize=2&sort=name');
  assert.equal(p1.status, 200);
  assert.deepEqual(p1.body.items.map((x: { name: string }) => x.name), ['A sched', 'B sched']);
  assert.equal(p1.body.hasMore, true);
  assert.equal(p1.body.total, 3);
  const p2 = await s.api(KEYS.admin, 'GET', `/v3/schedules?pageSize=2&sort=name&after=${p1.body.nextCursor}`);
  assert.deepEqual(p2.body.items.map((x: { name: string }) => x.name), ['C sched']);
  assert.equal(p2.body.hasMore, false);
  assert.equal(p2.body.nextCursor, undefined);
  refusedWith(await s.api(KEYS.admin, 'GET', `/v3/schedules?pageSize=3&sort=name&after=${p1.body.nextCursor}`), 400, 'VALIDATION_ERROR', 'after');
  refusedWith(await s.api(KEYS.admin, 'GET', '/v3/schedules?pageSize=0'), 400, 'VALIDATION_ERROR', 'pageSize');
  refusedWith(await s.api(KEYS.admin, 'GET', '/v3/schedules?sort=colour'), 400, 'VALIDATION_ERROR', 'sort');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules?templateKey=${DEMO.onboarding}`)).body.total, 0);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules?templateKey=${DEMO.expense}`)).body.total, 3);
  refusedWith(await s.api(KEYS.admin, 'GET', '/v3/schedules?templateKey=20000000-0000-4000-8000-00000000ffff'), 404, 'TEMPLATE_NOT_FOUND');
  const desc = await s.api(KEYS.admin, 'GET', '/v3/schedules?sort=createdDateTime:desc');
  assert.deepEqual(desc.body.items.map((x: { id: number }) => x.id), [...ids].reverse());
  const runs = await s.api(KEYS.admin, 'GET', `/v3/schedules/${ids[0]}/runs?pageSize=4`);
  assert.equal(runs.body.items.length, 4);
  assert.equal(runs.body.total, 10, 'ten upcoming runs are kept ahead');
  assert.equal(runs.body.hasMore, true);
  const runs2 = await s.api(KEYS.admin, 'GET', `/v3/schedules/${ids[0]}/runs?pageSize=4&after=${runs.body.nextCursor}`);
  assert.equal(runs2.body.items[0].scheduledDateTime, '2030-01-14T09:00:00');
  refusedWith(await s.api(KEYS.admin, 'GET', `/v3/schedules/${ids[0]}/runs?pageSize=5&after=${runs.body.nextCursor}`), 400, 'VALIDATION_ERROR', 'after');
  refusedWith(await s.api(KEYS.admin, 'GET', `/v3/schedules/${ids[0]}/runs?status=Later`), 400, 'VALIDATION_ERROR', 'status');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules/${ids[0]}/runs?status=started`)).body.total, 0);
  const last = await s.api(KEYS.admin, 'GET', `/v3/schedules/${ids[0]}/runs?sort=scheduledDateTime:desc&pageSize=1`);
  assert.equal(last.body.items[0].scheduledDateTime, '2030-01-19T09:00:00');
  for (const id of ids) assert.equal((await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${id}`)).status, 204);
});

test('bad input: unknown zone, past start, impossible recurrences are 400 with field, and nothing is written', async () => {
  await setClock(s, '2030-01-01T00:00:00Z');
  const before = [n(s, 'SELECT COUNT(*) AS n FROM schedules'), n(s, 'SELECT COUNT(*) AS n FROM schedule_runs'), n(s, 'SELECT COUNT(*) AS n FROM checklists')];
  const cases: [Record<string, unknown>, string][] = [
    [daily({ timeZone: 'Mars/Olympus_Mons' }), 'timeZone'],
    [daily({ timeZone: '' }), 'timeZone'],
    [daily({ startDateTime: '2029-12-31T23:00:00' }), 'startDateTime'],
    [daily({ startDateTime: '2029-12-31T23:00:00Z' }), 'startDateTime'],
    [daily({ startDateTime: '2030-02-30T09:00:00' }), 'startDateTime'],
    [daily({ startDateTime: 'tomorrow' }), 'startDateTime'],
    [daily({ recurrence: { frequency: 'Hourly' } }), 'recurrence.frequency'],
    [daily({ recurrence: { frequency: 'Daily', interval: 0 } }), 'recurrence.interval'],
    [daily({ recurrence: { frequency: 'Daily', daysOfWeek: ['Monday'] } }), 'recurrence.daysOfWeek'],
    [daily({ recurrence: { frequency: 'Weekly', daysOfWeek: [] } }), 'recurrence.daysOfWeek'],
    [daily({ recurrence: { frequency: 'Weekly', daysOfWeek: ['Funday'] } }), 'recurrence.daysOfWeek[0]'],
    [daily({ recurrence: { frequency: 'Daily', endDate: '2030-01-09' } }), 'recurrence.endDate'],
    [daily({ recurrence: { frequency: 'Daily', endDate: '2030-13-01' } }), 'recurrence.endDate'],
    [daily({ recurrence: { frequency: 'Daily', endDate: '2030-02-01', count: 3 } }), 'recurrence.count'],
    [daily({ recurrence: { frequency: 'Daily', count: 0 } }), 'recurrence.count'],
    // Thursday the 10th to Sunday the 13th holds no Monday: the weekly series never runs.
    [daily({ recurrence: { frequency: 'Weekly', daysOfWeek: ['Monday'], endDate: '2030-01-13' } }), 'recurrence.endDate'],
    [daily({ name: '   ' }), 'name'],
    [daily({ templateKey: 'not-a-key' }), 'templateKey'],
  ];
  for (const [body, field] of cases) refusedWith(await s.api(KEYS.admin, 'POST', '/v3/schedules', body), 400, 'VALIDATION_ERROR', field);
  refusedWith(await s.api(KEYS.admin, 'POST', '/v3/schedules', { ...daily(), templateKey: undefined }), 400, 'VALIDATION_ERROR', 'templateKey');
  // Validation comes before lookups: a bad zone on an unknown template is still 400.
  refusedWith(await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ timeZone: 'Nowhere', templateKey: '20000000-0000-4000-8000-00000000ffff' })), 400, 'VALIDATION_ERROR', 'timeZone');
  refusedWith(await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ templateKey: '20000000-0000-4000-8000-00000000ffff' })), 404, 'TEMPLATE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ templateKey: DEMO.oldProcess })), 409, 'CONFLICT');
  refusedWith(await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ templateKey: DEMO.globexAudit })), 404, 'TEMPLATE_NOT_FOUND');
  assert.deepEqual([n(s, 'SELECT COUNT(*) AS n FROM schedules'), n(s, 'SELECT COUNT(*) AS n FROM schedule_runs'), n(s, 'SELECT COUNT(*) AS n FROM checklists')], before, 'nothing written');

  // A Windows zone name is accepted and reported as its IANA name; an offset start is converted.
  const w = await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ timeZone: 'W. Europe Standard Time', startDateTime: '2030-01-10T08:00:00Z', recurrence: undefined }));
  assert.equal(w.status, 201, w.text);
  assert.equal(w.body.timeZone, 'Europe/Berlin');
  assert.equal(w.body.startDateTime, '2030-01-10T09:00:00');
  assert.equal(w.body.recurrence, undefined, 'no recurrence: one run');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules/${w.body.id}/runs`)).body.total, 1);
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${w.body.id}`);
});

test('5.4, 5.5, 5.9 permissions: Schedule.Viewer reads, Schedule.Creator writes with run permission; Administrators and the workspace key pass', async () => {
  await setClock(s, '2030-01-01T00:00:00Z');
  const mine = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily())).body;
  const runId = mine.nextRun.id;
  try {
    // Mia has Checklist.Creator but no schedule right; Nora has nothing.
    for (const key of [KEYS.member, KEYS.noperm]) {
      refusedWith(await s.api(key, 'GET', '/v3/schedules'), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'GET', `/v3/schedules/${mine.id}`), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'GET', `/v3/schedules/${mine.id}/runs`), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'POST', '/v3/schedules', daily()), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'PATCH', `/v3/schedules/${mine.id}`, { name: 'x' }), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'DELETE', `/v3/schedules/${mine.id}`), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'POST', `/v3/schedules/${mine.id}/runs/${runId}/skip`), 403, 'FORBIDDEN');
      refusedWith(await s.api(key, 'POST', `/v3/schedules/${mine.id}/runs/${runId}/start`), 403, 'FORBIDDEN');
    }
    // 5.10: the lookup comes first, so an unknown schedule is 404 even without the right.
    refusedWith(await s.api(KEYS.noperm, 'GET', '/v3/schedules/999999'), 404, 'SCHEDULE_NOT_FOUND');

    setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher', 'Schedule.Viewer']);
    assert.equal((await s.api(KEYS.member, 'GET', '/v3/schedules')).status, 200);
    assert.equal((await s.api(KEYS.member, 'GET', `/v3/schedules/${mine.id}`)).status, 200);
    assert.equal((await s.api(KEYS.member, 'GET', `/v3/schedules/${mine.id}/runs`)).status, 200);
    refusedWith(await s.api(KEYS.member, 'POST', '/v3/schedules', daily()), 403, 'FORBIDDEN');
    refusedWith(await s.api(KEYS.member, 'POST', `/v3/schedules/${mine.id}/runs/${runId}/skip`), 403, 'FORBIDDEN');

    setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher', 'Schedule.Creator']);
    assert.equal((await s.api(KEYS.member, 'GET', '/v3/schedules')).status, 200, 'Schedule.Creator reads too');
    // Vendor Review gives Mia View only: no run permission, so no schedule of it (5.5).
    refusedWith(await s.api(KEYS.member, 'POST', '/v3/schedules', daily({ templateKey: DEMO.vendor })), 403, 'FORBIDDEN');
    const hers = await s.api(KEYS.member, 'POST', '/v3/schedules', daily({ name: "Mia's" }));
    assert.equal(hers.status, 201, hers.text);
    assert.deepEqual(hers.body.createdBy, { name: 'Mia Member', email: 'mia@acme.test' });
    refusedWith(await s.api(KEYS.member, 'PATCH', `/v3/schedules/${hers.body.id}`, { templateKey: DEMO.vendor }), 403, 'FORBIDDEN');
    assert.equal((await s.api(KEYS.member, 'POST', `/v3/schedules/${hers.body.id}/runs/${hers.body.nextRun.id}/skip`)).status, 200);
    assert.equal((await s.api(KEYS.member, 'DELETE', `/v3/schedules/${hers.body.id}`)).status, 204);

    // 5.9: the workspace key passes every schedule check; its schedules are the workspace creator's.
    const ws = await s.api(KEYS.workspace, 'POST', '/v3/schedules', daily({ name: 'Workspace schedule', templateKey: DEMO.vendor }));
    assert.equal(ws.status, 201, ws.text);
    assert.deepEqual(ws.body.createdBy, { name: 'Ada Admin', email: 'ada@acme.test' });
    assert.equal((await s.api(KEYS.workspace, 'POST', `/v3/schedules/${ws.body.id}/runs/${ws.body.nextRun.id}/skip`)).status, 200);
    assert.equal((await s.api(KEYS.workspace, 'DELETE', `/v3/schedules/${ws.body.id}`)).status, 204);
    // Another workspace's schedule is 404, never 403.
    refusedWith(await s.api(KEYS.globexAdmin, 'GET', `/v3/schedules/${mine.id}`, undefined, {}, s.eu), 404, 'SCHEDULE_NOT_FOUND');
  } finally {
    setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
    await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${mine.id}`);
  }
});

test('4.1 rule 8 PATCH: name renames the Scheduled checklist; timing re-plans the runs to come; null recurrence is one run; refusals', async () => {
  await setClock(s, '2030-01-01T00:00:00Z');
  const sc = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily())).body;
  const runs0 = await runsWhen(s, sc.id, () => true);
  const p = await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { name: 'Renamed' });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.body.name, 'Renamed');
  assert.ok(p.body.updatedDateTime);
  assert.equal(p.body.nextRun.id, sc.nextRun.id, 'a rename keeps the runs');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${runs0[0].checklist!.key}`)).body.name, 'Renamed');

  const q = await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { timeZone: 'America/New_York', recurrence: { frequency: 'Monthly', interval: 3 } });
  assert.equal(q.status, 200, q.text);
  assert.equal(q.body.startDateTime, '2030-01-10T09:00:00', 'the start keeps its wall clock in the new zone');
  assert.equal(q.body.startDateTimeUtc, '2030-01-10T14:00:00.000Z');
  const runs1 = await runsWhen(s, sc.id, () => true);
  assert.deepEqual(runs1.slice(0, 3).map((r) => r.scheduledDateTime), ['2030-01-10T09:00:00', '2030-04-10T09:00:00', '2030-07-10T09:00:00']);
  assert.equal(runs1[1].scheduledDateTimeUtc, '2030-04-10T13:00:00.000Z', 'daylight saving time in New York in April');
  assert.ok(!runs1.some((r) => r.id === runs0[0].id), 'the runs to come were re-planned');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${runs0[0].checklist!.key}`)).status, 404, 'the old Scheduled checklist is gone');
  assert.equal(runs1[0].checklist?.status, 'Scheduled');

  const once = await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { recurrence: null });
  assert.equal(once.body.recurrence, undefined);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}/runs`)).body.total, 1);

  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { name: null }), 400, 'VALIDATION_ERROR', 'name');
  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { timeZone: 'Atlantis/Capital' }), 400, 'VALIDATION_ERROR', 'timeZone');
  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { startDateTime: '2020-01-01T09:00:00' }), 400, 'VALIDATION_ERROR', 'startDateTime');
  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { recurrence: { frequency: 'Daily', extra: 1 } }), 400, 'VALIDATION_ERROR', 'recurrence');
  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { templateKey: DEMO.oldProcess }), 409, 'CONFLICT');
  refusedWith(await s.api(KEYS.admin, 'PATCH', '/v3/schedules/999999', { name: 'x' }), 404, 'SCHEDULE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { templateKey: '20000000-0000-4000-8000-00000000ffff' }), 404, 'TEMPLATE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'GET', '/v3/schedules/abc'), 400, 'VALIDATION_ERROR', 'scheduleId');
  // After its only run has happened, an end date in the past leaves nothing to run: 400, nothing changed.
  await setClock(s, '2030-01-11T00:00:00Z');
  await runsWhen(s, sc.id, (r) => started(r).length === 1);
  const ended = await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}`);
  assert.equal(ended.body.status, 'Ended');
  refusedWith(await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { recurrence: { frequency: 'Daily', endDate: '2030-01-10' } }), 400, 'VALIDATION_ERROR', 'recurrence.endDate');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}`)).body, ended.body, 'a refused PATCH writes nothing');
  // Giving an ended schedule a recurrence brings it back with runs after now.
  const again = await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${sc.id}`, { recurrence: { frequency: 'Yearly' } });
  assert.equal(again.body.status, 'Active');
  assert.equal(again.body.nextRun.scheduledDateTime, '2031-01-10T09:00:00');
  assert.equal((await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`)).status, 204);
  refusedWith(await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}`), 404, 'SCHEDULE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`), 404, 'SCHEDULE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}/runs`), 404, 'SCHEDULE_NOT_FOUND');
});

test('5.5 skip a run and create its checklist now: states, 409s and 404s', async () => {
  await setClock(s, '2030-01-01T00:00:00Z');
  const sc = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ recurrence: { frequency: 'Daily', count: 3 } }))).body;
  let runs = await runsWhen(s, sc.id, () => true);
  const placeholder = runs[0].checklist!.key;
  const sk = await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[0].id}/skip`);
  assert.equal(sk.status, 200, sk.text);
  assert.equal(sk.body.status, 'Skipped');
  assert.equal(sk.body.skippedDateTime, '2030-01-01T00:00:00.000Z');
  assert.deepEqual(sk.body.skippedBy, { name: 'Ada Admin', email: 'ada@acme.test' });
  assert.equal(sk.body.checklist, undefined);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${placeholder}`)).status, 404, "the skipped run's Scheduled checklist is removed");
  assert.deepEqual((await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[0].id}/skip`)).body, sk.body, 'skipping again changes nothing');
  runs = await runsWhen(s, sc.id, () => true);
  assert.equal(runs[1].checklist?.status, 'Scheduled', 'the next run now has the Scheduled checklist');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[0].id}/start`), 409, 'CONFLICT');

  // Create the third run's checklist now (it had none yet).
  await setClock(s, '2030-01-02T10:00:00Z');
  const st = await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[2].id}/start`);
  assert.equal(st.status, 200, st.text);
  assert.equal(st.body.status, 'Started');
  assert.equal(st.body.startedDateTime, '2030-01-02T10:00:00.000Z');
  assert.equal(st.body.checklist.status, 'InProgress');
  const c = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${st.body.checklist.key}`)).body;
  assert.equal(c.startDateTime, '2030-01-02T10:00:00.000Z');
  assert.equal(c.scheduledDateTime, '2030-01-12T08:00:00.000Z', 'it keeps the instant it was planned for');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[2].id}/start`), 409, 'CONFLICT');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[2].id}/skip`), 409, 'CONFLICT');
  // The second run's Scheduled checklist starts in place: same key.
  const st2 = await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[1].id}/start`);
  assert.equal(st2.body.checklist.key, runs[1].checklist!.key);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.id}`)).body.status, 'Ended');

  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/999999/skip`), 404, 'SCHEDULE_RUN_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/999999/runs/${runs[0].id}/start`), 404, 'SCHEDULE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/999999/runs/${runs[0].id}/skip`), 404, 'SCHEDULE_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/999999/start`), 404, 'SCHEDULE_RUN_NOT_FOUND');
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/x/skip`), 400, 'VALIDATION_ERROR', 'runId');
  // A run of another schedule is not this schedule's.
  const other = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ startDateTime: '2030-01-05T09:00:00' }))).body;
  refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${other.nextRun.id}/skip`), 404, 'SCHEDULE_RUN_NOT_FOUND');
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${other.id}`);
  // Deleting the schedule keeps the checklists it started.
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${st.body.checklist.key}`)).status, 200);
});

async function dstCase(zone: string, clockAt: string, start: string, expectUtc: string[]) {
  await setClock(s, clockAt);
  const sc = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ name: `DST ${zone}`, timeZone: zone, startDateTime: start, recurrence: { frequency: 'Daily', count: 3 } }))).body;
  const planned = await runsWhen(s, sc.id, () => true);
  assert.deepEqual(planned.map((r) => r.scheduledDateTimeUtc), expectUtc, 'the UTC instant moves with the change; the wall clock does not');
  assert.ok(planned.every((r) => r.scheduledDateTime.endsWith('T09:00:00')));
  const count = () => n(s, 'SELECT COUNT(*) AS n FROM checklists WHERE schedule_id = ? AND status = ?', sc.id, 'InProgress');
  // Step the clock an hour at a time across the three runs and the change of offset.
  for (let i = 0; i < 3 * 24 + 2; i++) await advance(s, { hours: 1 });
  const runs = await runsWhen(s, sc.id, (r) => started(r).length === 3);
  assert.deepEqual(runs.map((r) => r.startedDateTime), expectUtc, 'each run started at its own instant');
  await sleep(150);
  assert.equal(count(), 3, 'once each: three runs, three checklists');
  await advance(s, { days: 5 });
  await sleep(150);
  assert.equal(count(), 3, 'nothing fires twice');
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`);
}

test('clock: a daily 09:00 schedule fires once per run across the spring change in Europe/Berlin', () =>
  dstCase('Europe/Berlin', '2030-03-29T12:00:00Z', '2030-03-30T09:00:00', ['2030-03-30T08:00:00.000Z', '2030-03-31T07:00:00.000Z', '2030-04-01T07:00:00.000Z']));

test('clock: a daily 09:00 schedule fires once per run across the autumn change in America/New_York', () =>
  dstCase('America/New_York', '2030-11-01T12:00:00Z', '2030-11-02T09:00:00', ['2030-11-02T13:00:00.000Z', '2030-11-03T14:00:00.000Z', '2030-11-04T14:00:00.000Z']));

test('clock: a time skipped by the spring change runs an hour later on the wall clock (02:30 Berlin becomes 03:30); a doubled time runs once', async () => {
  await setClock(s, '2030-03-01T00:00:00Z');
  const sc = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ timeZone: 'Europe/Berlin', startDateTime: '2030-03-30T02:30:00', recurrence: { frequency: 'Daily', count: 3 } }))).body;
  const runs = await runsWhen(s, sc.id, () => true);
  assert.deepEqual(
    runs.map((r) => [r.scheduledDateTime, r.scheduledDateTimeUtc]),
    [
      ['2030-03-30T02:30:00', '2030-03-30T01:30:00.000Z'],
      ['2030-03-31T03:30:00', '2030-03-31T01:30:00.000Z'],
      ['2030-04-01T02:30:00', '2030-04-01T00:30:00.000Z'],
    ],
  );
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`);
  // 02:30 exists twice on the autumn change (27 October 2030): it runs once, at the later one.
  const fall = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ timeZone: 'Europe/Berlin', startDateTime: '2030-10-26T02:30:00', recurrence: { frequency: 'Daily', count: 3 } }))).body;
  const fr = await runsWhen(s, fall.id, () => true);
  assert.deepEqual(
    fr.map((r) => [r.scheduledDateTime, r.scheduledDateTimeUtc]),
    [
      ['2030-10-26T02:30:00', '2030-10-26T00:30:00.000Z'],
      ['2030-10-27T02:30:00', '2030-10-27T01:30:00.000Z'],
      ['2030-10-28T02:30:00', '2030-10-28T01:30:00.000Z'],
    ],
  );
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${fall.id}`);
});

test('6.1, 6.3 new_checklist fires when a scheduled run starts, with the scheduler name and support address; not for the Scheduled checklist', async () => {
  const rx = await startReceiver();
  try {
    await setClock(s, '2030-06-01T00:00:00Z');
    const hook = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'new_checklist', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.expense } });
    assert.equal(hook.status, 201, hook.text);
    const sc = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ name: 'Hooked', startDateTime: '2030-06-02T09:00:00', recurrence: { frequency: 'Daily', count: 2 } }))).body;
    await sleep(300);
    assert.equal(rx.received.length, 0, 'a Scheduled checklist has not started: no new_checklist yet');
    await advance(s, { days: 1, hours: 12 });
    const [got] = await rx.waitFor(1);
    assert.equal(got.headers['svc-event'], 'new_checklist');
    const body = JSON.parse(got.body);
    assert.equal(body.checklistName, 'Hooked');
    assert.equal(body.checklistCreatedByName, SCHEDULER.name);
    assert.equal(body.checklistCreatedByEmail, SCHEDULER.email);
    assert.equal(body.checklistScheduledDateTime, '2030-06-02T07:00:00+00:00');
    assert.equal(body.checklistStartDateTime, '2030-06-02T07:00:00+00:00');
    assert.equal(body.checklistEndDateTime, null);
    assert.equal(body.template.templateKey, DEMO.expense);
    // Creating a run's checklist now fires it too, once.
    const runs = await runsWhen(s, sc.id, () => true);
    await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${runs[1].id}/start`);
    const both = await rx.waitFor(2);
    assert.equal(JSON.parse(both[1].body).checklistCreatedByName, SCHEDULER.name);
    await advance(s, { days: 3 });
    await sleep(300);
    assert.equal(rx.received.length, 2, 'once per checklist');
    await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${hook.body.id}`);
    await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`);
  } finally {
    await rx.close();
  }
});

test('5.10 a run due while its template is archived fails with a reason and starts nothing; the schedule goes on', async () => {
  await setClock(s, '2030-08-01T00:00:00Z');
  const sc = (await s.api(KEYS.admin, 'POST', '/v3/schedules', daily({ startDateTime: '2030-08-01T09:00:00', recurrence: { frequency: 'Daily', count: 2 } }))).body;
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${DEMO.expense}/archive`)).status, 200);
  try {
    refusedWith(await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.id}/runs/${sc.nextRun.id}/start`), 409, 'CONFLICT');
    await advance(s, { hours: 12 });
    const runs = await runsWhen(s, sc.id, (r) => r[0].status !== 'Upcoming');
    assert.equal(runs[0].status, 'Failed');
    assert.match((runs[0] as Run & { reason: string }).reason, /archived/);
    assert.equal(runs[0].checklist, undefined);
    assert.equal(n(s, 'SELECT COUNT(*) AS n FROM checklists WHERE schedule_id = ?', sc.id), 0);
  } finally {
    await s.api(KEYS.admin, 'DELETE', `/v3/templates/${DEMO.expense}/archive`);
  }
  await advance(s, { days: 1 });
  const runs = await runsWhen(s, sc.id, (r) => r[1].status !== 'Upcoming');
  assert.equal(runs[1].status, 'Started');
  await s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sc.id}`);
});

test('durability: a file-database server restarted between runs fires each run exactly once', async () => {
  const db = join(dir, 'restart.sqlite');
  const clock = new Clock();
  clock.set(Date.parse('2030-05-01T00:00:00Z'), true);
  const s1 = await startTestServer({ db, clock });
  let id: number;
  try {
    id = (await s1.api(KEYS.admin, 'POST', '/v3/schedules', daily({ timeZone: 'America/New_York', startDateTime: '2030-05-01T09:00:00', recurrence: { frequency: 'Daily', count: 4 } }))).body.id;
    await advance(s1, { hours: 14 }); // past the first run (13:00Z)
    await runsWhen(s1, id, (r) => started(r).length === 1);
  } finally {
    await s1.close();
  }
  // The same instant after the restart: nothing fires again. Then a day later: the second run, once.
  const clock2 = new Clock();
  clock2.set(Date.parse('2030-05-01T14:00:00Z'), true);
  const s2 = await startTestServer({ db, clock: clock2 });
  try {
    await sleep(200);
    let runs = await runsWhen(s2, id!, () => true);
    assert.equal(started(runs).length, 1);
    assert.equal(n(s2, 'SELECT COUNT(*) AS n FROM checklists WHERE schedule_id = ? AND status = ?', id!, 'InProgress'), 1);
    await advance(s2, { days: 1 });
    runs = await runsWhen(s2, id!, (r) => started(r).length === 2);
    await sleep(200);
    assert.equal(n(s2, 'SELECT COUNT(*) AS n FROM checklists WHERE schedule_id = ? AND status = ?', id!, 'InProgress'), 2);
    assert.equal(runs[2].checklist?.status, 'Scheduled', 'the next run has its Scheduled checklist again');
  } finally {
    await s2.close();
  }
  // Down for two days: both missed runs start after the next start, each once, at their own instants.
  const clock3 = new Clock();
  clock3.set(Date.parse('2030-05-05T00:00:00Z'), true);
  const s3 = await startTestServer({ db, clock: clock3 });
  try {
    const runs = await runsWhen(s3, id!, (r) => started(r).length === 4);
    assert.deepEqual(runs.map((r) => r.startedDateTime), ['2030-05-01T13:00:00.000Z', '2030-05-02T13:00:00.000Z', '2030-05-03T13:00:00.000Z', '2030-05-04T13:00:00.000Z']);
    await sleep(200);
    assert.equal(n(s3, 'SELECT COUNT(*) AS n FROM checklists WHERE schedule_id = ?', id!), 4);
  } finally {
    await s3.close();
  }
});
