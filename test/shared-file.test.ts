// Two processes on one database file (EMULATOR.md "Safe on a shared desktop"; docs/reliability.md
// "Several processes on one file"): `wfe serve --db F` and `wfe mcp --db F` writing at once never
// answer 5xx or INTERNAL_ERROR and lose nothing; a write lock held past the wait is 503 with
// Retry-After in each transport's shape, and nothing is half-written.
// test:slow: a `wfe serve` and a `wfe mcp` process writing one database file for seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { callTool, mcpStdioClient, startTestServer, KEYS, DEMO } from './helpers/server';
import { runCli } from './helpers/spine';
import { loadNativeBinding } from '../src/store/native';

const WRITE_SECONDS = 10;

const openRaw = (file: string) => new Database(file, { nativeBinding: loadNativeBinding() } as Database.Options);

test('wfe serve --db F and wfe mcp --db F, two writers in each for 10 s: no 5xx, no INTERNAL_ERROR, no lost write, integrity ok', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-shared-'));
  const file = join(dir, 'shared.db');
  // Created and seeded by one process first, as a user would (serve, then an agent beside it).
  const serve = runCli(['serve', '--db', file, '--port-us', '0', '--port-eu', '0', '--standard-budget', '1000000', '--cheap-budget', '1000000']);
  const banner = await serve.waitFor('Ctrl+C');
  const us = /US\s+REST (http:\/\/[^/\s]+)\/v3/.exec(banner)![1];
  const mcp = await mcpStdioClient(KEYS.admin, ['--db', file, '--standard-budget', '1000000', '--cheap-budget', '1000000']);
  const stamp = Date.now();
  const statuses = new Map<number, number>();
  const mcpErrors: string[] = [];
  let restOk = 0;
  let mcpOk = 0;
  const until = Date.now() + WRITE_SECONDS * 1000;
  const restWriter = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const res = await fetch(`${us}/v3/checklists`, {
        method: 'POST',
        headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ templateKey: DEMO.expense, name: `shared ${stamp} rest ${w}.${i}`, parameters: { Amount: '1.00' } }),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 201) restOk++;
    }
  };
  const mcpWriter = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const r = await callTool(mcp, 'add_task_comment', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.collectDetails, html: `<p>shared ${stamp} mcp ${w}.${i}</p>` });
      if (r.isError) mcpErrors.push(r.text.slice(0, 300));
      else mcpOk++;
    }
  };
  try {
    await Promise.all([restWriter(1), restWriter(2), mcpWriter(1), mcpWriter(2)]);
  } finally {
    await mcp.close().catch(() => {});
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  try {
    const fivexx = [...statuses].filter(([s]) => s >= 500);
    assert.deepEqual(fivexx, [], `REST answers by status: ${JSON.stringify([...statuses])}; serve stderr: ${serve.stderr().slice(0, 2000)}`);
    assert.deepEqual(mcpErrors, [], 'no MCP call failed (no INTERNAL_ERROR)');
    assert.ok(restOk > 10 && mcpOk > 10, `both processes wrote: REST ${restOk}, MCP ${mcpOk}`);
    const db = openRaw(file);
    try {
      const restRows = (db.prepare('SELECT COUNT(*) AS n FROM checklists WHERE name LIKE ?').get(`shared ${stamp} rest %`) as { n: number }).n;
      assert.equal(restRows, restOk, 'every REST write acknowledged is in the file');
      const mcpRows = (db.prepare("SELECT COUNT(*) AS n FROM comments WHERE html LIKE ?").get(`<p>shared ${stamp} mcp %`) as { n: number }).n;
      assert.equal(mcpRows, mcpOk, 'every MCP write acknowledged is in the file');
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write lock held past the wait: 503 DATABASE_BUSY with Retry-After on v3, legacy and MCP; nothing written; the next write succeeds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-busy-'));
  const file = join(dir, 'busy.db');
  const saved = process.env.WFE_BUSY_TIMEOUT_MS;
  process.env.WFE_BUSY_TIMEOUT_MS = '300';
  const s = await startTestServer({ db: file });
  if (saved === undefined) delete process.env.WFE_BUSY_TIMEOUT_MS;
  else process.env.WFE_BUSY_TIMEOUT_MS = saved;
  const other = openRaw(file);
  try {
    const name = `busy ${Date.now()}`;
    const body = { templateKey: DEMO.expense, name, parameters: { Amount: '1.00' } };
    const client = await s.mcp(KEYS.admin);
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock
    try {
      const v3 = await s.api(KEYS.admin, 'POST', '/v3/checklists', body);
      assert.equal(v3.status, 503);
      assert.equal(v3.body.error.code, 'DATABASE_BUSY');
      assert.equal(v3.headers.get('retry-after'), '1');
      assert.equal(v3.body.error.requestId, v3.headers.get('x-request-id'));
      const legacy = await s.api(KEYS.admin, 'POST', `/api/checklist?templateKey=${DEMO.onboarding}&checklistName=${encodeURIComponent(name)}`);
      assert.equal(legacy.status, 503);
      assert.equal(typeof legacy.body.error, 'string');
      assert.match(legacy.body.error, /write lock/);
      assert.equal(legacy.headers.get('retry-after'), '1');
      const m = await callTool(client, 'add_task_comment', { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.collectDetails, html: `<p>${name}</p>` });
      assert.equal(m.isError, true);
      assert.equal(m.body.error.code, 'DATABASE_BUSY');
      const reset = await s.api(null, 'POST', '/_emulator/reset');
      assert.equal(reset.status, 503);
      assert.equal(reset.body.error.code, 'DATABASE_BUSY');
      // Reads do not wait for the lock.
      assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`)).status, 200);
    } finally {
      other.exec('ROLLBACK');
    }
    assert.equal((other.prepare('SELECT COUNT(*) AS n FROM checklists WHERE name = ?').get(name) as { n: number }).n, 0, 'nothing half-written');
    assert.equal((other.prepare('SELECT COUNT(*) AS n FROM comments WHERE html = ?').get(`<p>${name}</p>`) as { n: number }).n, 0);
    const again = await s.api(KEYS.admin, 'POST', '/v3/checklists', body);
    assert.equal(again.status, 201, 'once the lock is free the same write succeeds');
  } finally {
    other.close();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
