// The per-table change counts (store/watched-tables.ts) and the write count that lets a memo
// skip asking SQLite (store/change-signal.ts): a value of a memo declaring some tables
// (store/memo.ts) is answered again only while no row of those tables may have changed. Each test
// remembers a value that counts its computations, writes, rolls back or commits from another
// connection, and checks whether the value was computed again. Probes run on the emulator's
// own connection inside a transaction they roll back, so the fixture stays as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { taskPath, T } from './helpers/tasks';
import { Memo, type MemoSpec } from '../src/store/memo';
import { COUNTED, uncounted, type Read } from '../src/store/watched-tables';
import { openDb, type Db } from '../src/store/open';
import { rollbackCount } from '../src/store/change-signal';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const ACCESS: Read[] = [{ table: 'template_permissions' }, { table: 'group_members' }, { table: 'task_assignees' }, { table: 'tasks', columns: ['id', 'checklist_id', 'attached_checklist_id'] }];
const ANSWERS: Read[] = [{ table: 'field_values' }, { table: 'files' }, { table: 'tasks', columns: ['id', 'checklist_id'] }];

/** A memo value declared to read `reads`, and how many times it was computed (verify mode off: the probe counts its computations). */
function probe(db: Db, reads: MemoSpec['reads']) {
  const memo = new Memo<string, number>(db, { name: 'probe', reads }, { verify: false });
  let computed = 0;
  return { read: () => memo.get('probe', () => ++computed), computed: () => computed };
}

class Undo extends Error {}

/** Runs `fn` in a transaction that is rolled back afterwards. */
function rolledBack(db: Db, fn: () => void): void {
  try {
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      fn();
      throw new Undo();
    })();
  } catch (e) {
    if (!(e instanceof Undo)) throw e;
  }
}

const columnsOf = (db: Db, table: string) => (db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

/** Rows for the tables the demo fixture leaves empty, added inside the rolled-back transaction so every table has a row to write. */
const FIRST_ROWS: Record<string, string> = {
  files: "INSERT INTO files (workspace_id, task_id, field_key, name, content_type, data, token, created_at) SELECT workspace_id, id, 'probe', 'probe.txt', 'text/plain', x'00', 'probe-token', 0 FROM tasks LIMIT 1",
  webhooks: "INSERT INTO webhooks (key, workspace_id, api, event_type, target_url, created_at) VALUES ('probe', 1, 'v3', 'task_completed', 'http://127.0.0.1:9/', 0)",
  comments: "INSERT INTO comments (task_id, author_id, text, created_at) SELECT id, NULL, 'probe', 0 FROM tasks LIMIT 1",
};

function someRow(db: Db, table: string): void {
  if (db.prepare(`SELECT 1 AS one FROM main.${table} LIMIT 1`).get()) return;
  assert.ok(FIRST_ROWS[table], `the fixture has rows in ${table}, or the test adds one`);
  db.prepare(FIRST_ROWS[table]).run();
}

{
  for (const w of COUNTED) {
    test(`a memo reading ${w.table}${w.columns ? ` (${w.columns.join(', ')})` : ''}: an update, a delete and an insert each make the next answer fresh; the rollback too`, () => {
      const db = s.emu.db;
      const p = probe(db, [w]);
      rolledBack(db, () => {
        someRow(db, w.table);
        p.read();
        assert.equal(p.read(), p.computed(), 'remembered while nothing is written');
        const n0 = p.computed();
        const column = (w.columns ?? columnsOf(db, w.table))[0];
        db.prepare(`UPDATE main.${w.table} SET ${column} = ${column}`).run();
        assert.equal(p.read(), n0 + 1, `after an update of ${w.table}.${column}`);
        db.exec(`CREATE TEMP TABLE probe_copy AS SELECT * FROM main.${w.table}`);
        db.prepare(`DELETE FROM main.${w.table}`).run();
        assert.equal(p.read(), n0 + 2, `after a delete from ${w.table}`);
        db.prepare(`INSERT INTO main.${w.table} SELECT * FROM temp.probe_copy`).run();
        assert.equal(p.read(), n0 + 3, `after an insert into ${w.table}`);
        db.exec('DROP TABLE temp.probe_copy');
      });
      const n = p.computed();
      assert.equal(p.read(), n + 1, 'after the rollback: nothing computed inside the transaction is answered');
    });
  }
}

test('a memo reading the access tables: each counted column of tasks counts, and a task status write (what completing a task writes) leaves the access facts standing', () => {
  const db = s.emu.db;
  const p = probe(db, ACCESS);
  rolledBack(db, () => {
    p.read();
    const n0 = p.computed();
    db.prepare("UPDATE tasks SET status = 'Complete', completed_at = 1 WHERE key = ?").run(T.managerApproval);
    db.prepare("INSERT INTO activity (workspace_id, member_id, action, text, created_at) VALUES (1, 101, 'probe', 'probe', 0)").run();
    assert.equal(p.read(), n0, 'a status write and an activity row: still remembered');
    let n = n0;
    for (const column of COUNTED.find((w) => w.table === 'tasks')!.columns!) {
      db.prepare(`UPDATE tasks SET ${column} = ${column} WHERE key = ?`).run(T.managerApproval);
      assert.equal(p.read(), ++n, `after an update of tasks.${column}`);
    }
  });
});

test('memos reading the answers and the template documents survive a status write; one that may read any table does not', () => {
  const db = s.emu.db;
  const answers = probe(db, ANSWERS);
  const documents = probe(db, ['template_versions']);
  const whole = probe(db, 'any');
  const readWhole = whole.read;
  rolledBack(db, () => {
    answers.read();
    documents.read();
    readWhole();
    db.prepare("UPDATE tasks SET status = 'Complete' WHERE key = ?").run(T.managerApproval);
    assert.equal(answers.read(), 1);
    assert.equal(documents.read(), 1);
    assert.equal(readWhole(), 2);
  });
});

test('a savepoint rolled back, then the same table written again: the value computed inside the savepoint is not answered', () => {
  const db = s.emu.db;
  const p = probe(db, ACCESS);
  rolledBack(db, () => {
    p.read();
    try {
      db.transaction(() => {
        db.prepare('UPDATE task_assignees SET assignee_id = assignee_id').run();
        p.read(); // computed inside the savepoint
        throw new Error('the step fails');
      })();
    } catch {
      // rolled back to the savepoint (the table's count stays moved; the rollback count moves too)
    }
    const inside = p.computed();
    db.prepare('UPDATE task_assignees SET assignee_id = assignee_id').run(); // the same table written again
    assert.equal(p.read(), inside + 1, 'computed again, not the value from inside the savepoint');
  });
});

test('a write through db.exec, through a prepared statement and through INSERT ... RETURNING read with get(): each is seen without any other signal', () => {
  const db = s.emu.db;
  const p = probe(db, ACCESS);
  rolledBack(db, () => {
    p.read();
    db.exec('UPDATE group_members SET member_id = member_id');
    assert.equal(p.read(), 2, 'db.exec');
    db.prepare('UPDATE group_members SET member_id = member_id').run();
    assert.equal(p.read(), 3, 'run()');
    const row = db.prepare('INSERT INTO group_members (group_id, member_id) SELECT group_id, 104 FROM group_members LIMIT 1 RETURNING member_id').get() as { member_id: number };
    assert.equal(row.member_id, 104);
    assert.equal(p.read(), 4, 'get() of INSERT ... RETURNING');
  });
});

test('a ROLLBACK run by hand (not through db.transaction) is counted as a rollback', () => {
  const db = s.emu.db;
  const before = rollbackCount(db);
  db.exec('BEGIN');
  db.exec('ROLLBACK');
  assert.equal(rollbackCount(db), before + 1, 'db.exec');
  db.prepare('BEGIN').run();
  db.prepare('ROLLBACK').run();
  assert.equal(rollbackCount(db), before + 2, 'a prepared ROLLBACK');
});

test('db.transaction as better-sqlite3 gives it: arguments, this and the result pass through; nested calls are savepoints; a promise is refused; a failed commit rolls back and is counted', () => {
  const db = s.emu.db;
  db.exec('CREATE TEMP TABLE tx_probe (n INTEGER UNIQUE)');
  const count = () => (db.prepare('SELECT COUNT(*) AS n FROM temp.tx_probe').get() as { n: number }).n;
  try {
    const add = db.transaction(function (this: unknown, n: number) {
      db.prepare('INSERT INTO temp.tx_probe VALUES (?)').run(n);
      return [this, n];
    });
    const self = { me: 1 };
    assert.deepEqual(add.call(self, 1), [self, 1]);
    for (const variant of [add.immediate, add.deferred, add.exclusive]) assert.equal(typeof variant, 'function');
    assert.equal((add as unknown as { database: Db }).database, db);
    assert.equal(add.deferred(2)[1], 2);
    assert.equal(count(), 2);
    db.transaction(() => {
      add(3);
      assert.throws(() => add(3), /UNIQUE/);
      assert.equal(db.inTransaction, true, 'the failed savepoint left the outer transaction open');
    })();
    assert.equal(count(), 3, 'the outer transaction committed its own row');
    assert.throws(() => db.transaction(() => Promise.resolve())(), /cannot return a promise/);
    assert.equal(db.inTransaction, false);
    assert.throws(() => db.transaction(undefined as unknown as () => void), TypeError);

    // A deferred foreign key violated: COMMIT fails, the transaction is rolled back and counted.
    const before = rollbackCount(db);
    assert.throws(
      () =>
        db.transaction(() => {
          db.pragma('defer_foreign_keys = ON');
          db.prepare('INSERT INTO group_members (group_id, member_id) VALUES (999999, 101)').run();
        })(),
      /FOREIGN KEY/,
    );
    assert.equal(db.inTransaction, false);
    assert.equal(rollbackCount(db), before + 1);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM group_members WHERE group_id = 999999').get() as { n: number }).n, 0);
  } finally {
    db.exec('DROP TABLE temp.tx_probe');
  }
});

test('a bulk write with the triggers set aside (the generated workspace): every counted table counts it once, and the triggers come back to the temp schema, never the file', () => {
  const db = openDb();
  try {
    const probes = COUNTED.map((w) => probe(db, [w]));
    for (const p of probes) p.read();
    const temp = () => (db.prepare("SELECT COUNT(*) AS n FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'rows_written_%'").get() as { n: number }).n;
    const before = temp();
    assert.ok(before > 0);
    uncounted(db, () => {
      assert.equal(temp(), 0, 'set aside while the bulk write runs');
    });
    assert.equal(temp(), before);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'rows_written_%'").get() as { n: number }).n, 0, 'none in the database itself');
    for (const p of probes) assert.equal(p.read(), 2, 'computed again after the bulk write');
    db.exec("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'W', 'US', 0)");
    assert.equal(probes[COUNTED.findIndex((w) => w.table === 'workspaces')].read(), 3, 'the triggers count again');
  } finally {
    db.close();
  }
});

test('another connection committing to the same file (wfe mcp --db F beside the server): every memo\'s values are computed again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-families-'));
  const file = join(dir, 'shared.db');
  const a = openDb(file);
  const b = openDb(file);
  try {
    b.exec('CREATE TABLE probe (n INTEGER)');
    for (const w of [...COUNTED, 'any' as const]) {
      const p = probe(a, w === 'any' ? w : [w]);
      const family = w === 'any' ? 'any' : w.table;
      p.read();
      assert.equal(p.read(), 1);
      b.prepare('INSERT INTO probe VALUES (1)').run();
      assert.equal(p.read(), 2, `${family}: a commit by the other connection`);
      assert.equal(p.read(), 2);
    }
  } finally {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('4.3 complete and uncomplete, then a change of access and of answers: every answer follows the stored rows', async () => {
  const c = DEMO.janeDoe;
  const nora = KEYS.noperm;
  assert.equal((await s.api(nora, 'GET', taskPath(c, T.firstDayWelcome))).status, 403);
  for (const method of ['POST', 'DELETE', 'POST', 'DELETE']) {
    const r = await s.api(KEYS.admin, method, taskPath(c, T.managerApproval, '/complete'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, method === 'POST' ? 'Complete' : 'Incomplete');
    assert.equal((await s.api(KEYS.admin, 'GET', taskPath(c, T.firstDayWelcome))).body.isCurrentlyHalted, method === 'DELETE', 'halted exactly while the stop task is incomplete');
    assert.equal((await s.api(nora, 'GET', taskPath(c, T.firstDayWelcome))).status, 403, 'a status write gives Nora nothing');
  }
  const assigned = await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] });
  assert.equal(assigned.status, 200, assigned.text);
  try {
    assert.equal((await s.api(nora, 'GET', taskPath(c, T.firstDayWelcome))).status, 200, 'something on the checklist is Nora\'s now (5.4)');
  } finally {
    assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [] })).status, 200);
  }
  assert.equal((await s.api(nora, 'GET', taskPath(c, T.firstDayWelcome))).status, 403, 'and nothing again once unassigned');
});
