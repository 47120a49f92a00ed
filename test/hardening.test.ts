// Self-hosting hardening (docs/reliability.md "Hardening"): keys at rest, size
// limits in the envelope, the slow-client guard, binding and its warning, the
// control-route switches, comment HTML, file downloads, online backup and restore.
process.env.WFE_HEADERS_TIMEOUT_MS = '1000'; // the slowloris guard, shortened for the test (default 20 s)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromSource, startTestServer, DEMO, KEYS, ROOT, type TestServer } from './helpers/server';
import { rawHead, rawRequest, header } from './fuzz/raw-http';
import { backupDatabase, checkDatabaseFile, restoreDatabase } from '../src/store/backup';
import { sha256 } from '../src/ids';

const dir = mkdtempSync(join(tmpdir(), 'wfe-hardening-'));
const dbFile = join(dir, 'live.sqlite');
let s: TestServer;
before(async () => {
  s = await startTestServer({ db: dbFile, maxBodyBytes: 64 * 1024 });
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const port = (url: string) => Number(new URL(url).port);

test('5.2: keys are stored only as SHA-256 digests; no plaintext key is anywhere in the database files', async () => {
  for (const key of Object.values(KEYS)) assert.equal((await s.api(key, 'GET', '/v3/auth/test', undefined, {}, key.startsWith('globex') ? s.eu : s.us)).headers.get('x-request-id') !== null, true);
  s.emu.db.pragma('wal_checkpoint(FULL)');
  const bytes = Buffer.concat([dbFile, `${dbFile}-wal`].filter(existsSync).map((f) => readFileSync(f)));
  for (const key of Object.values(KEYS)) {
    assert.equal(bytes.indexOf(Buffer.from(key)), -1, `plaintext ${key} found in the database file`);
    const row = s.emu.db.prepare('SELECT key_hash FROM api_keys WHERE key_hash = ?').get(sha256(key));
    assert.ok(row, `${key} is stored as its digest`);
  }
});

test('8: a body over the limit is 413 in the envelope; headers over 32 KB are 431 in the envelope', async () => {
  const big = await s.api(KEYS.admin, 'POST', '/v3/templates', { name: 'x'.repeat(70 * 1024) });
  assert.equal(big.status, 413);
  assert.equal(big.body.error.code, 'PAYLOAD_TOO_LARGE');
  assert.equal(big.body.error.requestId, big.headers.get('x-request-id'));
  const h = await rawRequest('127.0.0.1', port(s.us), rawHead('GET', '/v3/auth/test', [['X-API-KEY', KEYS.admin], ['X-Filler', 'y'.repeat(40 * 1024)]]));
  assert.equal(h.status, 431);
  const body = JSON.parse(h.body.toString());
  assert.equal(body.error.code, 'REQUEST_HEADERS_TOO_LARGE');
  assert.equal(body.error.requestId, header(h, 'x-request-id'));
  // A header HTTP does not allow (a bare CR) is 400 in the envelope, and the server goes on answering.
  const bad = await rawRequest('127.0.0.1', port(s.us), Buffer.from(`GET /v3/auth/test HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: a\rb\r\nConnection: close\r\n\r\n`, 'latin1'));
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body.toString()).error.code, 'VALIDATION_ERROR');
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
});

test('4.1 rule 9: X-Request-Id is echoed only when it is 1-128 allowed characters; never with CR/LF', async () => {
  for (const [sent, echoed] of [
    ['ok-id_1.2:3+4/5=', true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    ['has space', false],
    ['caf\u00e9', false],
    ['%0d%0aSet-Cookie:x', false],
  ] as const) {
    const a = await rawRequest('127.0.0.1', port(s.us), rawHead('GET', '/v3/auth/test', [['X-API-KEY', KEYS.admin], ['X-Request-Id', sent]]));
    const got = header(a, 'x-request-id')!;
    if (echoed) assert.equal(got, sent);
    else assert.match(got, /^req_[0-9a-f]{32}$/, `for ${JSON.stringify(sent)}`);
    assert.equal(a.headers['set-cookie'], undefined);
  }
});

test('slow-client guard: headers sent a byte at a time are cut off after headersTimeout, in the envelope', async () => {
  const started = Date.now();
  const answer = await new Promise<string>((resolve) => {
    const sock = connect(port(s.us), '127.0.0.1');
    let got = '';
    let i = 0;
    const text = 'GET /v3/auth/test HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: acme-admin-key\r\nX-Slow: ' + 'z'.repeat(200);
    const timer = setInterval(() => {
      if (sock.writable && i < text.length) sock.write(text[i++]);
    }, 100);
    sock.on('data', (d) => (got += d.toString()));
    sock.on('close', () => {
      clearInterval(timer);
      resolve(got);
    });
    sock.on('error', () => {});
  });
  const took = Date.now() - started;
  assert.ok(took < 8_000, `cut off after ${took} ms`);
  assert.match(answer, /^HTTP\/1\.1 408/);
  assert.match(answer, /"code":"REQUEST_TIMEOUT"/);
});

test('binding: 127.0.0.1 by default; a warning on stderr when bound elsewhere with open control routes', async () => {
  const run = (args: string[]) =>
    new Promise<{ out: string; err: string }>((resolve, reject) => {
      const env: Record<string, string | undefined> = { ...process.env, WFE_CLI: '1' };
      delete env.WFE_HOST;
      const p = spawn(process.execPath, fromSource(['serve', '--port-us', '0', '--port-eu', '0', ...args]), { cwd: ROOT, env });
      let out = '';
      let err = '';
      // Stopped as soon as the banner is out: the warning is written right after it (src/cli.ts),
      // before a signal can be handled, and 'close' waits for both pipes to drain.
      p.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ctrl+C')) p.kill('SIGTERM');
      });
      p.stderr.on('data', (d) => (err += d));
      // A hang guard only (a start that never prints its banner), cleared when the process ends:
      // left running, it kept this file's process alive for its full minute.
      const guard = setTimeout(() => p.kill('SIGKILL'), 120_000);
      p.on('close', () => {
        clearTimeout(guard);
        resolve({ out, err });
      });
      p.on('error', reject);
    });
  const [dflt, open, tokened, off] = await Promise.all([
    run([]),
    run(['--host', '0.0.0.0']),
    run(['--host', '0.0.0.0', '--admin-token', 't0ken']),
    run(['--host', '0.0.0.0', '--no-admin']),
  ]);
  assert.match(dflt.out, /REST http:\/\/127\.0\.0\.1:\d+\/v3/);
  assert.doesNotMatch(dflt.err, /warning/);
  assert.match(open.err, /warning: bound to 0\.0\.0\.0 .*no --admin-token/);
  assert.doesNotMatch(tokened.err, /warning/);
  assert.doesNotMatch(off.err, /warning/);
});

test('control routes: --admin-token requires the bearer token; --no-admin turns them off', async () => {
  const t = await startTestServer({ adminToken: 's3cret' });
  const n = await startTestServer({ noAdmin: true });
  try {
    const without = await fetch(`${t.us}/_emulator/clock`);
    assert.equal(without.status, 401);
    const body = await without.json();
    assert.equal(body.error.requestId, without.headers.get('x-request-id'));
    assert.equal((await fetch(`${t.us}/_emulator/clock`, { headers: { Authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await fetch(`${t.us}/_emulator/clock`, { headers: { Authorization: 'Bearer s3cret' } })).status, 200);
    const off = await fetch(`${n.us}/_emulator/clock`);
    assert.equal(off.status, 404);
    assert.equal((await fetch(`${n.us}/_emulator/export`)).status, 404);
  } finally {
    await t.close();
    await n.close();
  }
});

test('comment HTML: `text` holds no markup or script; the stored html is kept as sent (spec v3 2.4)', async () => {
  const html = '<p>Hi <b>there</b></p><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">link</a>';
  const r = await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/comments`, { html });
  assert.equal(r.status, 201, r.text);
  assert.doesNotMatch(r.body.text, /[<>]/);
  assert.doesNotMatch(r.body.text, /alert\(1\)|onerror/);
  assert.match(r.body.text, /Hi there/);
  const list = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/comments`);
  const items = Array.isArray(list.body) ? list.body : (list.body.items ?? list.body.comments ?? Object.values(list.body).find(Array.isArray));
  const stored = items.find((c: { id: unknown }) => c.id === r.body.id);
  assert.equal(stored.html, html);
});

test('file downloads: Content-Disposition attachment, a content type a browser will not run, nosniff', async () => {
  for (const [name, type, want] of [
    ['page.html', 'text/html', 'application/octet-stream'],
    ['pic.svg', 'image/svg+xml', 'application/octet-stream'],
    ['a"b\r\n.txt', 'text/plain', 'text/plain'],
    ['x.bin', 'application/x-msdownload', 'application/x-msdownload'],
  ] as const) {
    const r = await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/comments`, {
      text: 'see attachment',
      attachment: { name, contentType: type, data: Buffer.from('<script>alert(1)</script>').toString('base64') },
    });
    assert.equal(r.status, 201, r.text);
    const url: string = r.body.attachment?.url ?? r.body.file?.url;
    assert.ok(url, JSON.stringify(r.body));
    const d = await fetch(url);
    assert.equal(d.status, 200);
    assert.equal(d.headers.get('content-type'), want, name);
    assert.match(d.headers.get('content-disposition') ?? '', /^attachment; filename="[^"\r\n]*"/);
    assert.doesNotMatch(d.headers.get('content-disposition') ?? '', /[\r\n]/);
    assert.equal(d.headers.get('x-content-type-options'), 'nosniff');
  }
});

test('wfe backup while the server writes, wfe restore into a new file: the same data, integrity ok', async () => {
  const made = await s.api(KEYS.admin, 'POST', '/v3/templates', { name: 'Backed up', tasks: [{ ref: 'a', name: 'A' }] });
  assert.equal(made.status, 201, made.text);
  // Writes keep going while the backup copies pages.
  let writing = true;
  const load = (async () => {
    let n = 0;
    while (writing) await s.api(KEYS.admin, 'POST', '/v3/templates', { name: `During backup ${n++}`, tasks: [{ ref: 'a', name: 'A' }] });
  })();
  const out = join(dir, 'backup.sqlite');
  const r = await backupDatabase(dbFile, out);
  writing = false;
  await load;
  assert.equal(r.workspaces, 2);
  assert.equal(checkDatabaseFile(out).workspaces, 2);
  assert.ok(!existsSync(`${out}-wal`), 'a backup is one self-contained file');
  await assert.rejects(backupDatabase(dbFile, out), /already exists/);
  const target = join(dir, 'restored.sqlite');
  await restoreDatabase(out, target);
  await assert.rejects(restoreDatabase(out, target), /already holds data/);
  const t = await startTestServer({ db: target });
  try {
    const got = await t.api(KEYS.admin, 'GET', `/v3/templates/${made.body.key}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.name, 'Backed up');
  } finally {
    await t.close();
  }
  // Not a database: refused with a readable message, nothing written.
  const junk = join(dir, 'junk.sqlite');
  writeFileSync(junk, 'not a database at all'.repeat(20));
  await assert.rejects(restoreDatabase(junk, join(dir, 'never.sqlite')), /not a SQLite database|cannot be opened/);
  assert.ok(!existsSync(join(dir, 'never.sqlite')));
});

test('wfe backup and wfe restore from the command line', async () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(process.execPath, fromSource(args), { cwd: ROOT, env: { ...process.env, WFE_CLI: '1' } });
      let err = '';
      p.stderr.on('data', (d) => (err += d));
      p.on('exit', (code) => resolve({ code, err }));
    });
  const out = join(dir, 'cli-backup.sqlite');
  const b = await cli(['backup', '--db', dbFile, out]);
  assert.equal(b.code, 0, b.err);
  assert.match(b.err, /Backed up .* integrity ok/);
  const target = join(dir, 'cli-restored.sqlite');
  const r = await cli(['restore', '--db', target, out]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /Restored/);
  const again = await cli(['restore', '--db', target, out]);
  assert.equal(again.code, 1);
  assert.match(again.err, /--force/);
});
