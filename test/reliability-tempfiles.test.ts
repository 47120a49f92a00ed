// Issue 37 "No leftovers" (docs/reliability.md 11): a `wfe serve` killed (SIGKILL) while
// POST /_emulator/import streams its body leaves the file in its own temporary directory;
// the next start sweeps it, and a server that stops normally removes its own.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freePort, kill, startChild } from './helpers/crash';

// Every server this test starts (and this process) keeps its temporary files under this directory.
const base = mkdtempSync(join(tmpdir(), 'wfe-test-tempfiles-'));
const originalTmp = process.env.TMPDIR;
process.env.TMPDIR = base;
after(() => {
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  rmSync(base, { recursive: true, force: true });
});

const root = join(base, 'wfe-tmp');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Every import file under the servers' directories. */
const importFiles = (): string[] =>
  existsSync(root) ? readdirSync(root).flatMap((d) => readdirSync(join(root, d)).flatMap((j) => readdirSync(join(root, d, j)).map((f) => join(root, d, j, f)))) : [];

test('a killed import leaves its file only until the next start; a server stopped with SIGTERM leaves nothing', async () => {
  const db = join(base, 'wfe.sqlite');
  const child = await startChild(db, await freePort(), await freePort());
  // An import body that never ends: the SQLite header, then 4 MB, then nothing more.
  const req = request(`${child.us}/_emulator/import`, { method: 'POST', headers: { 'Content-Type': 'application/vnd.sqlite3' } });
  req.on('error', () => {});
  req.write(Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(4 * 1024 * 1024)]));
  for (let i = 0; i < 200 && importFiles().length === 0; i++) await sleep(50);
  assert.equal(importFiles().length, 1, 'the import streams to a file under <tmpdir>/wfe-tmp/<pid>-*/');
  assert.match(importFiles()[0], new RegExp(`wfe-tmp/${child.proc.pid}-[^/]+/import-[^/]+/import\\.sqlite$`));
  await kill(child);
  req.destroy();
  assert.equal(importFiles().length, 1, 'SIGKILL left it');

  const next = await startChild(db, await freePort(), await freePort());
  assert.deepEqual(importFiles(), [], 'the next start swept it');
  assert.deepEqual(existsSync(root) ? readdirSync(root) : [], [], "the dead server's directory is gone");
  // An import that completes uses the server's directory and leaves nothing in it.
  const exported = Buffer.from(await (await fetch(`${next.us}/_emulator/export`)).arrayBuffer());
  const imported = await fetch(`${next.us}/_emulator/import`, { method: 'POST', headers: { 'Content-Type': 'application/vnd.sqlite3' }, body: exported });
  assert.equal(imported.status, 200, await imported.text());
  assert.deepEqual(importFiles(), []);
  next.proc.kill('SIGTERM');
  await next.exited;
  assert.deepEqual(existsSync(root) ? readdirSync(root) : [], [], 'a server that stops removes its own directory');
});
