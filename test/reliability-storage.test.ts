// Issue 37 "Storage errors are answers" (docs/reliability.md 10). A full disk is made without
// root by SQLite's max_page_count on the server's own connection (the same SQLITE_FULL, "database
// or disk is full", a full filesystem gives): 503 STORAGE_FULL with Retry-After in the v3
// envelope, the legacy shape and an MCP isError result; the server stays up; nothing
// acknowledged is lost; writes succeed again once there is room; integrity_check ok.
// A database SQLite refuses to write is 503 STORAGE_READ_ONLY, and writes succeed again after.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { toApiError } from '../src/errors';
import { DEMO, KEYS, callTool, startTestServer, type TestServer } from './helpers/server';
import { OF, OFFICES, V2, recordCount } from './helpers/data-sets';
import { harness, startReceiver, waitUntil } from './helpers/webhooks';

let s: TestServer;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wfe-test-storage-'));
  s = await startTestServer({ db: join(dir, 'wfe.sqlite') });
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const FILLER = 'x'.repeat(4000);
const pageCount = () => s.emu.db.pragma('page_count', { simple: true }) as number;
/** The disk is full: the file may not grow past its current pages. */
const fillDisk = () => s.emu.db.pragma(`max_page_count = ${pageCount()}`);
const freeDisk = () => s.emu.db.pragma('max_page_count = 1073741823');

/** Writes a record until the answer is not 201 (the free room inside the file's pages runs out first). */
async function writeUntilRefused(write: () => Promise<{ status: number }>): Promise<{ acknowledged: number; refusal: any }> {
  let acknowledged = 0;
  for (let i = 0; i < 500; i++) {
    const r = await write();
    if (r.status !== 201 && r.status !== 200) return { acknowledged, refusal: r };
    acknowledged++;
  }
  throw new Error('the disk never filled');
}

const v3Record = () => s.api(KEYS.admin, 'POST', `/v3/data-sets/${OFFICES}/records`, { values: { [OF.name]: FILLER } });
const legacyRecord = () => s.api(KEYS.admin, 'POST', `/api/data-sets/${OFFICES}/records`, { values: { [OF.name]: FILLER } }, V2);

test('full disk on REST v3 (docs/reliability.md 10): 503 STORAGE_FULL, Retry-After, v3 envelope; the server stays up; nothing acknowledged lost; writes succeed again when space is freed', async () => {
  const start = recordCount(s, OFFICES);
  fillDisk();
  try {
    const { acknowledged, refusal } = await writeUntilRefused(v3Record);
    assert.equal(refusal.status, 503, refusal.text);
    assert.equal(refusal.body.error.code, 'STORAGE_FULL');
    assert.match(refusal.body.error.message, /disk .* is full/);
    assert.equal(refusal.headers.get('retry-after'), '30');
    assert.equal(refusal.body.error.requestId, refusal.headers.get('x-request-id'));
    assert.equal(recordCount(s, OFFICES), start + acknowledged, 'every acknowledged record is there, the refused one is not');
    // Up: reads answer, and another write is refused the same way (not a 500).
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
    assert.equal((await v3Record()).body.error.code, 'STORAGE_FULL');
  } finally {
    freeDisk();
  }
  const ok = await v3Record();
  assert.equal(ok.status, 201, ok.text);
  assert.equal(s.emu.db.pragma('integrity_check', { simple: true }), 'ok');
});

test('full disk on the legacy API: 503 {error, code: STORAGE_FULL} with Retry-After; writes succeed after', async () => {
  fillDisk();
  try {
    const { refusal } = await writeUntilRefused(legacyRecord);
    assert.equal(refusal.status, 503, refusal.text);
    assert.equal(refusal.body.code, 'STORAGE_FULL');
    assert.match(refusal.body.error, /disk .* is full/);
    assert.equal(refusal.headers.get('retry-after'), '30');
    assert.equal((await s.api(KEYS.admin, 'GET', `/api/data-sets/${OFFICES}`, undefined, V2)).status, 200);
  } finally {
    freeDisk();
  }
  assert.equal((await legacyRecord()).status, 201);
  assert.equal(s.emu.db.pragma('integrity_check', { simple: true }), 'ok');
});

test('full disk on MCP: an isError result with the STORAGE_FULL envelope and _meta {status 503, retryAfterSeconds}; writes succeed after', async () => {
  const c = await s.mcp(KEYS.admin);
  const comment = () => callTool(c, 'add_task_comment', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.collectDetails, html: `<p>${FILLER}</p>` });
  assert.equal((await comment()).isError, false);
  fillDisk();
  let refusal: Awaited<ReturnType<typeof comment>> | undefined;
  try {
    for (let i = 0; i < 500 && !refusal; i++) {
      const r = await comment();
      if (r.isError) refusal = r;
    }
    assert.ok(refusal, 'the disk never filled');
    assert.equal(refusal.body.error.code, 'STORAGE_FULL', refusal.text);
    assert.deepEqual(refusal.meta, { status: 503, retryAfterSeconds: 30 });
    assert.match(refusal.text, /^STORAGE_FULL: /);
    const read = await callTool(c, 'get_task', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.collectDetails });
    assert.equal(read.isError, false, read.text);
  } finally {
    freeDisk();
  }
  assert.equal((await comment()).isError, false);
  assert.equal(s.emu.db.pragma('integrity_check', { simple: true }), 'ok');
});

test('a database that cannot be written (SQLite refuses with SQLITE_READONLY; here PRAGMA query_only, as a read-only file gives it): 503 STORAGE_READ_ONLY in v3 and legacy with Retry-After; writes succeed when it is writable again', async () => {
  s.emu.db.pragma('query_only = ON');
  try {
    const r = await v3Record();
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.error.code, 'STORAGE_READ_ONLY');
    assert.equal(r.headers.get('retry-after'), '60');
    const l = await legacyRecord();
    assert.equal(l.status, 503, l.text);
    assert.equal(l.body.code, 'STORAGE_READ_ONLY');
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
  } finally {
    s.emu.db.pragma('query_only = OFF');
  }
  assert.equal((await v3Record()).status, 201);
  assert.equal(s.emu.db.pragma('integrity_check', { simple: true }), 'ok');
});

test('storage refusing under the webhook sender: a delivery it cannot record stays pending (the server up, the sender pausing, not spinning) and is recorded delivered once the database is writable again', async () => {
  const rx = await startReceiver();
  try {
    const h = harness(s);
    const sub = await h.subscribe({ eventType: 'new_checklist', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.expense } });
    await h.pause();
    const c = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Sent on a full disk' });
    assert.equal(c.status, 201, c.text);
    // An update in place of the delivery's row fits in its page however full the disk is, so the
    // refusal is SQLite's read-only one (the same storage path: docs/reliability.md 10).
    s.emu.db.pragma('query_only = ON');
    try {
      await h.resume();
      await new Promise((r) => setTimeout(r, 1500));
      // The sender's transaction is refused (before or after the POST): it waits 5 s, it does not spin.
      assert.ok(rx.received.length <= 1, `the sender pauses after the disk refused (${rx.received.length} requests)`);
      assert.equal((await h.deliveries(sub))[0].status, 'pending');
      assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
    } finally {
      s.emu.db.pragma('query_only = OFF');
    }
    await waitUntil(async () => (await h.deliveries(sub))[0].status === 'delivered', 15_000, 'the delivery recorded');
    await h.unsubscribe(sub);
  } finally {
    await rx.close();
  }
});

test('an I/O error (SQLITE_IOERR_*, as better-sqlite3 raises it) is 503 STORAGE_IO_ERROR with Retry-After 5; read-only and full have their own codes; other SQLite errors stay 500', () => {
  const io = toApiError(new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE'));
  assert.deepEqual([io.status, io.code, io.headers['Retry-After']], [503, 'STORAGE_IO_ERROR', '5']);
  assert.equal(toApiError(new Database.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY')).code, 'STORAGE_READ_ONLY');
  assert.equal(toApiError(new Database.SqliteError('database or disk is full', 'SQLITE_FULL')).code, 'STORAGE_FULL');
  assert.equal(toApiError(new Database.SqliteError('database is locked', 'SQLITE_BUSY')).code, 'DATABASE_BUSY');
  assert.equal(toApiError(new Database.SqliteError('no such table: x', 'SQLITE_ERROR')).status, 500);
});
