// Bounded bodies (docs/security.md "Big or hostile bodies"): POST /_emulator/import streams
// to a temporary file under --max-import-bytes, refuses a body that does not begin like a
// SQLite file at once (400) and one over the cap with 413; the server's memory stays flat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { runCli } from './helpers/spine';
import { startTestServer } from './helpers/server';

const MB = 1024 * 1024;

/** Peak and current resident memory of a process, in bytes (Linux /proc). */
function memoryOf(pid: number): { peak: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { peak: kb('VmHWM'), rss: kb('VmRSS') };
}

/**
 * POSTs `total` bytes generated chunk by chunk (never held whole), starting with `head`,
 * chunked (no Content-Length): resolves with the answer, whether or not the server read it all.
 */
function postStream(base: string, path: string, head: Buffer, total: number): Promise<{ status: number; body: any; sent: number }> {
  const u = new URL(base);
  const chunk = Buffer.alloc(MB, 0x5a);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest({ host: u.hostname, port: u.port, method: 'POST', path, headers: { 'Content-Type': 'application/vnd.sqlite3' } }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString('utf8')), sent });
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (sent < total && !answered) {
        const piece = sent === 0 ? Buffer.concat([head, chunk.subarray(head.length)]) : chunk.subarray(0, Math.min(MB, total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

test('200 MB of junk to /_emulator/import: refused (400 at once without a SQLite header; 400 after streaming with one) and the server grows by less than 64 MB', async (t) => {
  const r = runCli(['serve', '--port-us', '0', '--port-eu', '0']);
  try {
    const banner = await r.waitFor('Ctrl+C');
    const us = /US\s+REST (http:\/\/[^/\s]+)\/v3/.exec(banner)![1];
    // Warm up the fetch path (the adapter loads on first use) before the baseline.
    assert.equal((await fetch(`${us}/_emulator/health`)).status, 200);
    const before = memoryOf(r.child.pid!);

    const junk = await postStream(us, '/_emulator/import', Buffer.from('this is not a database'), 200 * MB);
    assert.equal(junk.status, 400);
    assert.equal(junk.body.error.code, 'VALIDATION_ERROR');
    assert.match(junk.body.error.message, /not a SQLite database file/);
    assert.ok(junk.sent < 200 * MB, `refused before the upload ended (${junk.sent} bytes sent)`);

    // A SQLite header followed by junk is streamed to disk whole, then refused by SQLite itself.
    const disguised = await postStream(us, '/_emulator/import', Buffer.from('SQLite format 3\0', 'latin1'), 200 * MB);
    assert.equal(disguised.status, 400);
    assert.equal(disguised.body.error.code, 'VALIDATION_ERROR');

    const after = memoryOf(r.child.pid!);
    t.diagnostic(`peak RSS before ${(before.peak / MB).toFixed(1)} MB, after ${(after.peak / MB).toFixed(1)} MB; junk refused after ${(junk.sent / MB).toFixed(1)} MB sent`);
    assert.ok(after.peak - before.peak < 64 * MB, `peak resident memory grew by ${((after.peak - before.peak) / MB).toFixed(1)} MB (from ${(before.peak / MB).toFixed(1)} MB)`);
    // The server is still up and unchanged.
    const health = await (await fetch(`${us}/_emulator/health`)).json();
    assert.equal(health.status, 'ok');
  } finally {
    r.child.kill('SIGTERM');
  }
  await r.exited;
});

test('over --max-import-bytes: 413 PAYLOAD_TOO_LARGE, declared or streamed; nothing changed; a real export under the cap still imports', async () => {
  const s = await startTestServer({ maxImportBytes: 4 * MB });
  try {
    const exported = Buffer.from(await (await fetch(`${s.us}/_emulator/export`)).arrayBuffer());
    assert.ok(exported.length < 4 * MB);
    const streamed = await postStream(s.us, '/_emulator/import', Buffer.from('SQLite format 3\0', 'latin1'), 5 * MB);
    assert.equal(streamed.status, 413);
    assert.equal(streamed.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.match(streamed.body.error.message, /4194304 bytes/);
    const declared = await fetch(`${s.us}/_emulator/import`, { method: 'POST', body: new Uint8Array(5 * MB) });
    assert.equal(declared.status, 413);
    const after = Buffer.from(await (await fetch(`${s.us}/_emulator/export`)).arrayBuffer());
    assert.ok(after.equals(exported), 'nothing changed');
    const ok = await fetch(`${s.us}/_emulator/import`, { method: 'POST', body: new Uint8Array(exported) });
    assert.equal(ok.status, 200);
    // Shorter than a header: refused as not SQLite, not as an error.
    const tiny = await fetch(`${s.us}/_emulator/import`, { method: 'POST', body: 'SQL' });
    assert.equal(tiny.status, 400);
    const empty = await fetch(`${s.us}/_emulator/import`, { method: 'POST' });
    assert.equal(empty.status, 400);
  } finally {
    await s.close();
  }
});

test('CLI: --max-import-bytes must be a whole number of 1 or more', async () => {
  const r = runCli(['serve', '--max-import-bytes', '0']);
  assert.notEqual((await r.exited).code, 0);
  assert.match(r.stderr(), /--max-import-bytes must be a whole number/);
});
