// The store (issue 2 "Store"): schema.sql applied in versioned blocks, file
// databases migrated and never dropped, --db survives restarts and uses WAL,
// API keys stored only as SHA-256 digests.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, openDb, schemaBlocks, schemaVersion } from '../src/store/open';
import { sha256 } from '../src/ids';
import { startTestServer, KEYS } from './helpers/server';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfe-store-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('store: schema.sql is split into versioned blocks; a new database reaches the newest version', () => {
  const blocks = schemaBlocks();
  assert.ok(blocks.length >= 1);
  assert.equal(blocks[0].version, 1);
  assert.ok(blocks.every((b, i) => i === 0 || b.version > blocks[i - 1].version), 'versions ascend');
  const db = openDb();
  assert.equal(db.pragma('user_version', { simple: true }), schemaVersion());
  db.close();
});

test('store: a file database at an older user_version is migrated, never dropped', () => {
  const file = join(dir, 'old.db');
  const v1 = schemaBlocks().filter((b) => b.version === 1);
  // An "older release": only version 1, with data in it.
  const old = new Database(file);
  migrate(old, v1);
  assert.equal(old.pragma('user_version', { simple: true }), 1);
  old.prepare("INSERT INTO workspaces (id, key, name, region, created_at) VALUES (7, 'k-7', 'Kept Ltd', 'EU', 1)").run();
  old.close();

  // A "newer release" adds a block that creates a table and a column.
  const newer = [...v1, { version: 2, sql: "CREATE TABLE test_extra (id INTEGER PRIMARY KEY, note TEXT);\nALTER TABLE workspaces ADD COLUMN test_note TEXT DEFAULT 'added';\n" }];
  const db = new Database(file);
  migrate(db, newer);
  assert.equal(db.pragma('user_version', { simple: true }), 2);
  assert.deepEqual(db.prepare('SELECT id, name, test_note FROM workspaces').all(), [{ id: 7, name: 'Kept Ltd', test_note: 'added' }]);
  assert.deepEqual(db.prepare('SELECT COUNT(*) AS n FROM test_extra').get(), { n: 0 });
  // Running it again changes nothing (each block applies once).
  migrate(db, newer);
  assert.equal(db.pragma('user_version', { simple: true }), 2);
  db.close();
});

test('store: reopening a current file database applies nothing twice and keeps its rows', () => {
  const file = join(dir, 'current.db');
  const a = openDb(file);
  a.prepare("INSERT INTO workspaces (id, key, name, region, created_at) VALUES (8, 'k-8', 'Again', 'US', 1)").run();
  a.close();
  const b = openDb(file);
  assert.equal(b.pragma('user_version', { simple: true }), schemaVersion());
  assert.deepEqual(b.prepare('SELECT name FROM workspaces').all(), [{ name: 'Again' }]);
  b.close();
});

test('store: a database from a newer release is refused with a clear message, not damaged', () => {
  const file = join(dir, 'future.db');
  const f = new Database(file);
  f.pragma('user_version = 999');
  f.close();
  assert.throws(() => openDb(file), /schema version 999, newer than this wfe knows/);
  const again = new Database(file);
  assert.equal(again.pragma('user_version', { simple: true }), 999);
  again.close();
});

test('store: a failing block is rolled back whole and the version is not raised', () => {
  const db = new Database(':memory:');
  migrate(db, [{ version: 1, sql: 'CREATE TABLE a (id INTEGER);' }]);
  assert.throws(() => migrate(db, [{ version: 1, sql: '' }, { version: 2, sql: 'CREATE TABLE b (id INTEGER); THIS IS NOT SQL;' }]));
  assert.equal(db.pragma('user_version', { simple: true }), 1);
  assert.deepEqual(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all(), [{ name: 'a' }]);
  db.close();
});

test('store: --db FILE uses WAL and survives a restart; the fixture is seeded only when new', async () => {
  const file = join(dir, 'restart.db');
  const first = await startTestServer({ db: file });
  try {
    assert.equal(first.emu.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal((await first.api(KEYS.admin, 'GET', '/v3/members/104')).body.name, 'Nora Noperm');
    first.emu.db.prepare("UPDATE members SET first_name = 'Renamed' WHERE id = 104").run();
    first.emu.db.prepare("INSERT INTO groups (id, workspace_id, name, created_at) VALUES (399, 1, 'Added Later', 1)").run();
  } finally {
    await first.close();
  }
  const counts = (db: Database.Database) => db.prepare('SELECT (SELECT COUNT(*) FROM members) AS m, (SELECT COUNT(*) FROM api_keys) AS k, (SELECT COUNT(*) FROM tasks) AS t').get();
  const second = await startTestServer({ db: file });
  try {
    assert.equal(second.emu.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal((await second.api(KEYS.admin, 'GET', '/v3/members/104')).body.name, 'Renamed Noperm');
    assert.equal((await second.api(KEYS.admin, 'GET', '/v3/groups/399')).body.name, 'Added Later');
    const fresh = openDb();
    const { loadFixture } = await import('../src/fixtures/load');
    loadFixture(fresh, 'demo', Date.now());
    assert.deepEqual(counts(second.emu.db), counts(fresh), 'not seeded a second time');
    fresh.close();
  } finally {
    await second.close();
  }
});

test('store: API keys are stored only as SHA-256 digests; no plaintext key is in the file', async () => {
  const file = join(dir, 'keys.db');
  const s = await startTestServer({ db: file });
  let hashes: string[];
  try {
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
    hashes = s.emu.db.prepare<[], { key_hash: string }>('SELECT key_hash FROM api_keys').all().map((r) => r.key_hash);
  } finally {
    await s.close();
  }
  for (const key of Object.values(KEYS)) assert.ok(hashes.includes(sha256(key)), key);
  assert.ok(hashes.every((h) => /^[0-9a-f]{64}$/.test(h)));
  const bytes = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)));
  for (const key of Object.values(KEYS)) assert.equal(bytes.includes(Buffer.from(key)), false, `${key} appears in the database file`);
  assert.equal(bytes.includes(Buffer.from('-admin-key')), false);
});

test('store: a checklist, a Data Set record and a standalone task are found by key in any letter case through an index, not a scan (schema version 9)', async () => {
  const { checklistByKey } = await import('../src/rows/checklists');
  const { recordByKey } = await import('../src/rows/data-set-records');
  const { standaloneTaskByKey } = await import('../src/rows/tasks');
  const db = openDb();
  // The statements the row functions prepare, as they prepare them.
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => (seen.push(sql), prepare(sql));
  checklistByKey(db, 1, 'A0000000-0000-4000-8000-00000000000A');
  recordByKey(db, 1, 'A0000000-0000-4000-8000-00000000000A');
  standaloneTaskByKey(db, 1, 'A0000000-0000-4000-8000-00000000000A');
  assert.equal(seen.length, 3);
  for (const sql of seen) {
    const plan = (prepare(`EXPLAIN QUERY PLAN ${sql}`).all('k', 1) as { detail: string }[]).map((r) => r.detail).join('; ');
    assert.match(plan, /USING INDEX \w+_key_nocase \((?:\w+=\? AND )?key=\?\)/, `${sql}\n  planned as: ${plan}`);
  }
  db.close();
});
