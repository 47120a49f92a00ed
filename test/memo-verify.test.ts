// Verify mode (WFE_MEMO_VERIFY=1, the Emulator's memoVerify; on in the test server): every memo
// hit is computed again from the database and compared, and a difference throws with the memo's
// name (src/store/memo.ts). A reader that reads a table it did not declare, and a writer whose
// hand-over is wrong, are the two ways a memo goes stale; each is shown failing here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { taskPath, T } from './helpers/tasks';
import { Memo, MemoMismatch, declareMemo, memoOn, verifyMemos } from '../src/store/memo';
import { openDb } from '../src/store/open';
import { gridCount } from '../src/domain/mywork/grid-memo';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

test('a reader that reads a table it does not declare: the hit after that table is written throws, naming the memo', () => {
  const db = openDb();
  try {
    db.exec("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'Before', 'US', 0)");
    const read = () => (db.prepare('SELECT name FROM workspaces').get() as { name: string }).name;
    const spec = declareMemo({ name: 'workspace name (declares comments only)', reads: ['comments'] });
    verifyMemos(db);
    const memo = memoOn<string, string>(db, spec);
    assert.equal(memo.get('w', read), 'Before');
    assert.equal(memo.get('w', read), 'Before', 'a hit, verified: still the same');
    db.exec("UPDATE workspaces SET name = 'After'");
    assert.throws(
      () => memo.get('w', read),
      (e: unknown) => e instanceof MemoMismatch && e.memo === 'workspace name (declares comments only)' && /workspace name \(declares comments only\)/.test(e.message),
    );
    verifyMemos(db, false);
    assert.equal(memo.get('w', read), 'Before', 'without verify mode the stale value is what such a memo answers: why verify mode is on in tests');
  } finally {
    db.close();
  }
});

test('the same reader declaring what it reads: the write makes the next answer fresh, verify mode has nothing to say', () => {
  const db = openDb();
  try {
    db.exec("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'Before', 'US', 0)");
    const read = () => (db.prepare('SELECT name FROM workspaces').get() as { name: string }).name;
    verifyMemos(db);
    const memo = memoOn<string, string>(db, declareMemo({ name: 'workspace name', reads: ['workspaces'] }));
    assert.equal(memo.get('w', read), 'Before');
    db.exec("UPDATE workspaces SET name = 'After'");
    assert.equal(memo.get('w', read), 'After');
    assert.equal(memo.get('w', read), 'After');
  } finally {
    db.close();
  }
});

test('a writer whose hand-over is wrong (it hands over a value other than the one its statement left): the next hit throws, naming the memo', () => {
  const db = openDb();
  try {
    db.exec("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'W', 'US', 0)");
    db.exec("INSERT INTO tasks (key, workspace_id, position, name, created_at) VALUES ('t', 1, 0, 'T', 0)");
    const id = (db.prepare("SELECT id FROM tasks WHERE key = 't'").get() as { id: number }).id;
    const read = () => (db.prepare('SELECT name FROM tasks WHERE id = ?').get(id) as { name: string }).name;
    const memo = new Memo<number, string>(db, { name: 'task name', reads: [{ table: 'tasks', columns: ['name'] }], per: 'task' }, { verify: true });
    assert.equal(memo.get(id, read), 'T');
    const before = memo.current(id);
    const changes = db.prepare("UPDATE tasks SET name = 'Renamed' WHERE id = ?").run(id).changes;
    memo.afterOwnWrite(id, before, changes, () => 'Wrong');
    assert.throws(() => memo.get(id, read), (e: unknown) => e instanceof MemoMismatch && e.memo === 'task name');
    const right = memo.current(id);
    const again = db.prepare("UPDATE tasks SET name = 'Again' WHERE id = ?").run(id).changes;
    memo.afterOwnWrite(id, right, again, () => 'Again');
    assert.equal(memo.get(id, read), 'Again', 'a right hand-over passes the check');
  } finally {
    db.close();
  }
});

test('a rollback drops every memo value, the grid totals included: a count taken inside a rolled-back transaction is not answered after', () => {
  // The Tasks grid's totals (src/domain/mywork/grid-memo.ts) once kept their own stamp (data_version
  // and total_changes()), which a rollback does not move back: the count taken inside was answered after.
  const db = openDb();
  try {
    const count = () => gridCount(db, 'SELECT count(*) AS n FROM workspaces', []);
    assert.equal(count(), 0);
    class Undo extends Error {}
    assert.throws(() =>
      db.transaction(() => {
        db.exec("INSERT INTO workspaces (key, name, region, created_at) VALUES ('w', 'W', 'US', 0)");
        assert.equal(count(), 1, 'inside the transaction');
        throw new Undo();
      })(),
    Undo);
    assert.equal(count(), 0, 'after the rollback');
  } finally {
    db.close();
  }
});

test('verify mode is on in the test server: answers read twice (the second from memory) are checked against the database', async () => {
  const c = DEMO.janeDoe;
  for (let i = 0; i < 2; i++) {
    const r = await s.api(KEYS.admin, 'GET', taskPath(c, T.firstDayWelcome));
    assert.equal(r.status, 200, r.text);
  }
  const db = s.emu.db;
  const spec = declareMemo({ name: 'probe in the server', reads: ['comments'] });
  const memo = memoOn<string, number>(db, spec);
  let n = 0;
  memo.get('k', () => ++n);
  assert.throws(() => memo.get('k', () => ++n), MemoMismatch, 'the server\'s database checks its memos');
});
