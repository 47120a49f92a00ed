// A status write that changes nothing ("already complete answers 200 and writes nothing", spec v3
// 4.3) is a read: its answer is remembered like a read's until the database changes
// (src/pipeline/answer-memo.ts, `unchangedIsRead` in src/operations/define.ts). These tests show
// that such an answer is never one the stored rows no longer give: after a write through another
// route, a write rolled back, a commit by another process, a reset, a change to the member it names; that
// it is the asker's own; that every repeat is still charged and still gets its own request id; and
// that a call with an Idempotency-Key keeps its replay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { besideOneFile, callTool, startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { newChecklist, taskPath, T } from './helpers/tasks';

const V2 = { 'X-API-VERSION': '2.0' };

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const writes = (server: TestServer) => (server.emu.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
const stored = (server: TestServer, checklistKey: string, taskKey: string) =>
  server.emu.db.prepare('SELECT t.id, t.status, t.completed_at, t.completed_by FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as {
    id: number;
    status: string;
    completed_at: number | null;
    completed_by: number | null;
  };

/** Completes Manager approval on `c`, then repeats it (the repeat is remembered). */
async function completeTwice(server: TestServer, c: string): Promise<void> {
  const path = taskPath(c, T.managerApproval, '/complete');
  assert.equal((await server.api(KEYS.admin, 'POST', path)).body.status, 'Complete');
  assert.equal((await server.api(KEYS.admin, 'POST', path)).body.status, 'Complete');
}

/** After something reopened it, the repeated complete writes the completion again: `why` says what reopened it. */
async function completesAgain(server: TestServer, c: string, why: string): Promise<void> {
  const before = writes(server);
  const again = await server.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/complete'));
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.status, 'Complete');
  assert.ok(writes(server) > before, why);
  assert.equal(stored(server, c, T.managerApproval).status, 'Complete');
}

test('4.3 Complete a task already complete: 200 and nothing written, every repeat the same body with its own request id and its own charge', async () => {
  const c = await newChecklist(s);
  const path = taskPath(c, T.managerApproval, '/complete');
  const first = await s.api(KEYS.admin, 'POST', path);
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.status, 'Complete');
  const before = writes(s);
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await s.api(KEYS.admin, 'POST', path));
  assert.equal(writes(s), before, 'already complete: nothing written, however often it is asked');
  for (const a of answers) {
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(a.body, first.body, 'the task as it stands, as the write that completed it answered');
  }
  const ids = new Set(answers.map((a) => a.headers.get('x-request-id')));
  assert.equal(ids.size, 3, 'each answer has its own request id');
  const remaining = answers.map((a) => Number(a.headers.get('x-ratelimit-remaining')));
  assert.ok(remaining[0] > remaining[1] && remaining[1] > remaining[2], `each repeat is charged to the standard budget (8): ${remaining.join(', ')}`);
  assert.equal(answers[2].headers.get('x-ratelimit-bucket'), 'standard');

  // The same for the other three status writes, each repeated with nothing changed in between.
  for (const [method, suffix, status] of [
    ['DELETE', '/complete', 'Incomplete'],
    ['POST', '/not-applicable', 'NotApplicable'],
    ['DELETE', '/not-applicable', 'Incomplete'],
  ] as const) {
    const done = await s.api(KEYS.admin, method, taskPath(c, T.managerApproval, suffix));
    assert.equal(done.body.status, status, done.text);
    const at = writes(s);
    const again = await s.api(KEYS.admin, method, taskPath(c, T.managerApproval, suffix));
    const third = await s.api(KEYS.admin, method, taskPath(c, T.managerApproval, suffix));
    assert.equal(writes(s), at, `${method} ${suffix} again: nothing written`);
    assert.deepEqual(again.body, done.body);
    assert.deepEqual(third.body, done.body);
  }
});

test('4.3 a repeated complete after the task was reopened through another route (DELETE .../complete): it completes the task again, with a new completion time', async () => {
  const c = await newChecklist(s);
  const path = taskPath(c, T.managerApproval, '/complete');
  await s.api(KEYS.admin, 'PUT', '/_emulator/clock', { frozen: false });
  const first = await s.api(KEYS.admin, 'POST', path);
  assert.equal((await s.api(KEYS.admin, 'POST', path)).status, 200);
  assert.equal((await s.api(KEYS.admin, 'DELETE', path)).body.status, 'Incomplete');
  assert.equal(stored(s, c, T.managerApproval).status, 'Incomplete');
  await new Promise((r) => setTimeout(r, 5));
  const again = await s.api(KEYS.admin, 'POST', path);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.status, 'Complete');
  assert.equal(stored(s, c, T.managerApproval).status, 'Complete', 'written, not answered from before');
  assert.notEqual(again.body.completedDateTime, first.body.completedDateTime, 'a new completion, at its own instant');
  assert.equal(Date.parse(again.body.completedDateTime), stored(s, c, T.managerApproval).completed_at);
});

test("2.4 / 5.4 a no-op status write is the asker's own: Nora (nothing on the checklist) is refused after Ada's repeat was answered, and an MCP call answers as REST does", async () => {
  const c = await newChecklist(s);
  const path = taskPath(c, T.managerApproval, '/complete');
  const ada = await s.api(KEYS.admin, 'POST', path);
  assert.equal((await s.api(KEYS.admin, 'POST', path)).status, 200);
  const nora = await s.api(KEYS.noperm, 'POST', path);
  assert.equal(nora.status, 403, 'Nora may not run the checklist (5.4), though the same call by Ada was just answered');
  assert.equal(nora.body.error.code, 'FORBIDDEN');
  const tools = await s.mcp(KEYS.admin);
  for (let i = 0; i < 2; i++) {
    const r = await callTool(tools, 'complete_task', { checklistKey: c, taskKey: T.managerApproval });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(r.body, ada.body, 'MCP over HTTP answers what REST answers (the same handler)');
  }
});

test('legacy 4.2 a write rolled back by a refusal between two repeats of POST .../not-applicable: the repeat answers what the stored rows say', async () => {
  const c = await newChecklist(s, { version: 1 });
  const MIA = DEMO.members.mia;
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(c, T.setUpEquipment, '/assignees'), { assignees: [{ type: 'TeamMember', id: MIA }] })).status, 200);
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.omar }], isAssignedExclusively: true })).status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/not-applicable'))).status, 200);
  const path = taskPath(c, T.managerApproval, '/not-applicable');
  const first = await s.api(KEYS.admin, 'POST', path);
  assert.equal((await s.api(KEYS.admin, 'POST', path)).body.status, 'NotApplicable');
  // NotApplicable → Complete passes through Incomplete, then completing is refused (the exclusive assignment keeps Mia out): all rolled back.
  const refused = await s.api(KEYS.member, 'PUT', '/api/task/status', { taskId: stored(s, c, T.managerApproval).id, status: 'Complete', modifiedByUserID: MIA }, V2);
  assert.equal(refused.status, 403, refused.text);
  assert.equal(stored(s, c, T.managerApproval).status, 'NotApplicable');
  const again = await s.api(KEYS.admin, 'POST', path);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body, first.body, 'still not applicable, as stored');
});

test('a second process writing to the same database file (wfe mcp --db F beside the server): a repeated complete completes the task the other process reopened', async () => {
  await besideOneFile(async (served, other) => {
    const c = DEMO.janeDoe;
    await completeTwice(served, c);
    const reopened = await callTool(other, 'uncomplete_task', { checklistKey: c, taskKey: T.managerApproval });
    assert.equal(reopened.isError, false, reopened.text);
    assert.equal(stored(served, c, T.managerApproval).status, 'Incomplete', 'the other process committed');
    await completesAgain(served, c, 'the server wrote the completion');
  });
});

test('2.4 completedBy of a repeated no-op follows the member it names (their name changed, then they left): never the name remembered from before', async () => {
  const server = await startTestServer();
  try {
    const c = await newChecklist(server);
    const path = taskPath(c, T.managerApproval, '/complete');
    // Completed by the Owner; Ada's repeats name them.
    assert.equal((await server.api(KEYS.owner, 'POST', path)).status, 200);
    const first = await server.api(KEYS.admin, 'POST', path);
    assert.ok(first.body.completedBy, first.text);
    assert.deepEqual((await server.api(KEYS.admin, 'POST', path)).body, first.body);
    const by = stored(server, c, T.managerApproval).completed_by!;
    // Members change only through a fixture load or import; written here on the emulator's own connection, as those do.
    server.emu.db.prepare("UPDATE members SET first_name = 'Renamed' WHERE id = ?").run(by);
    const renamed = await server.api(KEYS.admin, 'POST', path);
    assert.equal(renamed.status, 200, renamed.text);
    assert.match(renamed.body.completedBy.name, /^Renamed\b/);
    assert.equal(renamed.body.completedDateTime, first.body.completedDateTime, 'nothing else changed');
    const read = await server.api(KEYS.admin, 'GET', taskPath(c, T.managerApproval));
    assert.deepEqual(read.body.completedBy, renamed.body.completedBy, 'the task detail read names them the same way');
    server.emu.db.prepare('UPDATE members SET is_removed = 1 WHERE id = ?').run(by);
    const left = await server.api(KEYS.admin, 'POST', path);
    assert.equal(left.status, 200, left.text);
    assert.equal(left.body.completedBy, undefined, 'completedBy is absent once the member has left (2.4)');
    assert.equal(left.body.completedDateTime, first.body.completedDateTime);
  } finally {
    await server.close();
  }
});

test('4.6 rule 4 a status write with an Idempotency-Key is not answered from memory: its second send is the replay, marked Idempotent-Replayed', async () => {
  const c = await newChecklist(s);
  const path = taskPath(c, T.managerApproval, '/complete');
  assert.equal((await s.api(KEYS.admin, 'POST', path)).status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', path)).status, 200);
  const key = { 'Idempotency-Key': `unchanged-${c}` };
  const sent = await s.api(KEYS.admin, 'POST', path, undefined, key);
  assert.equal(sent.status, 200, sent.text);
  assert.equal(sent.headers.get('idempotent-replayed'), null);
  const replayed = await s.api(KEYS.admin, 'POST', path, undefined, key);
  assert.equal(replayed.status, 200, replayed.text);
  assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(replayed.body, sent.body);
});

for (const frozen of [true, false]) {
  test(`POST /_emulator/reset (${frozen ? 'frozen clock: the fixture image copied back' : 'running clock: the fixture loaded'}) between two repeats of a complete: the repeat after it completes the fixture's task again`, async () => {
    const server = await startTestServer();
    try {
      if (frozen) assert.equal((await fetch(`${server.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ frozen: true }) })).status, 200);
      const reset = async () => assert.equal((await fetch(`${server.us}/_emulator/reset`, { method: 'POST' })).status, 200);
      if (frozen) await reset(); // the first reset at this instant takes the image; the next copies it back
      const c = DEMO.janeDoe;
      await completeTwice(server, c);

      await reset();

      assert.equal(stored(server, c, T.managerApproval).status, 'Incomplete', 'the fixture leaves Manager approval incomplete');
      await completesAgain(server, c, 'written again after the reset, not answered from before it');
    } finally {
      await server.close();
    }
  });
}

// A status write that wrote is answered with the view of the state it left; the same call again
// finds that state and answers it too, so the write's answer is remembered for that state
// (operations/define.ts, unchangedIsRead). Each step below: the write's answer, the repeat that
// follows it, and the repeat computed again from the stored rows (after a row unrelated to the
// task is written, which drops every remembered answer) are the same body.
for (const frozen of [true, false]) {
  test(`4.3 / 6 every status write's answer is what its repeat answers at the state it left (${frozen ? 'frozen' : 'running'} clock), through a stop task releasing the tasks behind it and the checklist completing and reopening`, async () => {
    const server = await startTestServer();
    try {
      assert.equal((await fetch(`${server.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ frozen }) })).status, 200);
      const c = await newChecklist(server);
      // Every other task not applicable, so Manager approval (the stop task) is the last outstanding one.
      for (const task of [T.collectDetails, T.contractorAgreement, T.setUpEquipment, T.firstDayWelcome, T.sendWelcomePack]) {
        const na = await server.api(KEYS.admin, 'POST', taskPath(c, task, '/not-applicable'));
        assert.equal(na.status, 200, na.text);
      }
      const checklistStatus = async () => (await server.api(KEYS.admin, 'GET', `/v3/checklists/${c}`)).body.status;
      let unrelated = 0;
      const steps = [
        ['POST', '/complete', 'Complete', 'Complete'],
        ['DELETE', '/complete', 'Incomplete', 'InProgress'],
        ['POST', '/not-applicable', 'NotApplicable', 'Complete'],
        ['DELETE', '/not-applicable', 'Incomplete', 'InProgress'],
      ] as const;
      for (const [method, suffix, status, checklist] of steps) {
        const path = taskPath(c, T.managerApproval, suffix);
        const before = writes(server);
        const wrote = await server.api(KEYS.admin, method, path);
        assert.equal(wrote.status, 200, wrote.text);
        assert.equal(wrote.body.status, status);
        assert.ok(writes(server) > before, `${method} ${suffix} wrote`);
        assert.equal(await checklistStatus(), checklist, `the checklist is ${checklist} after ${method} ${suffix}`);
        if (!frozen) await new Promise((r) => setTimeout(r, 5)); // the running clock moves on before the repeats
        const at = writes(server);
        const repeat = await server.api(KEYS.admin, method, path);
        assert.equal(repeat.status, 200, repeat.text);
        assert.deepEqual(repeat.body, wrote.body, `${method} ${suffix} repeated: the write's own answer`);
        server.emu.db.prepare('INSERT INTO settings (name, value) VALUES (?, ?)').run(`unrelated-${frozen}-${unrelated++}`, 'x');
        const recomputed = await server.api(KEYS.admin, method, path);
        assert.equal(recomputed.status, 200, recomputed.text);
        assert.deepEqual(recomputed.body, wrote.body, `${method} ${suffix} repeated after an unrelated row: worked out again from the stored rows, the same body`);
        assert.equal(writes(server), at + 1, 'the repeats wrote nothing (the one row is the unrelated one)');
        const mcp = await callTool(await server.mcp(KEYS.admin), toolOf[`${method} ${suffix}`], { checklistKey: c, taskKey: T.managerApproval });
        assert.equal(mcp.isError, false, mcp.text);
        assert.deepEqual(mcp.body, wrote.body, 'MCP answers the same');
      }
    } finally {
      await server.close();
    }
  });
}

const toolOf: Record<string, string> = {
  'POST /complete': 'complete_task',
  'DELETE /complete': 'uncomplete_task',
  'POST /not-applicable': 'set_task_not_applicable',
  'DELETE /not-applicable': 'clear_task_not_applicable',
};
