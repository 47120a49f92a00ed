// The single executable (issue 3 item 5, README "Single executable"): `npm run build`
// makes dist/wfe; copied alone into an empty directory (no node_modules), it serves
// HTTP and MCP over stdio. Also: `node dist/wfe.cjs` outside a SEA finds the addon, and
// serves the OpenAPI document and tools/list the build made (src/prebuilt.ts) as the live build.
// test:slow: builds the single executable (build.mjs) and runs it as a child process.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT, KEYS, PATIENCE_MS, callTool } from './helpers/server';
import { bannerOf } from './helpers/spine';
import { operations } from '../src/operations';
import { openApiText } from '../src/openapi';
import { CompiledTable } from '../src/contract/compile';

const supported = process.platform === 'linux' && process.arch === 'x64';
let dir: string;
let exe: string;
let buildError: string | undefined;

before(() => {
  if (!supported) return;
  // The first build fetches Node 24 (npm cache) and compiles better-sqlite3 for it: minutes; later builds reuse dist/.runtime.
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0 || !existsSync(join(ROOT, 'dist', 'wfe'))) {
    buildError = `npm run build could not run: ${(r.stderr || r.error?.message || '').slice(-2000)}`;
    return;
  }
  dir = mkdtempSync(join(tmpdir(), 'wfe-sea-'));
  exe = join(dir, 'wfe');
  copyFileSync(join(ROOT, 'dist', 'wfe'), exe);
  spawnSync('chmod', ['+x', exe]);
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Environment without anything pointing back at this checkout. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[k]) env[k] = process.env[k]!;
  return { ...env, ...extra };
}

function skipReason(): string | undefined {
  if (!supported) return `the single executable is built for linux-x64 only (this is ${process.platform}-${process.arch})`;
  return buildError;
}

/** The US address from the banner (test/helpers/spine.ts `bannerOf`: the banner, not a clock). */
async function waitForBanner(child: ChildProcess): Promise<string> {
  return /US\s+REST (http:\/\/\S+)\/v3/.exec(await bannerOf(child, /US\s+REST http:\/\/\S+\/v3/))![1];
}

test('16.5 runtime: the executable carries Node 24 (a supported LTS line), not the machine\'s Node', (t) => {
  const why = skipReason();
  if (why) return t.skip(why);
  const r = spawnSync(exe, ['version', '--json'], { cwd: dir, env: cleanEnv(), encoding: 'utf8', timeout: PATIENCE_MS });
  assert.equal(r.status, 0, r.stderr);
  const info = JSON.parse(r.stdout);
  assert.match(info.node, /^v24\./);
  assert.equal(info.singleExecutable, true);
  assert.equal(info.modules, '137');
  const verbose = spawnSync(exe, ['version', '--verbose'], { cwd: dir, env: cleanEnv(), encoding: 'utf8', timeout: PATIENCE_MS });
  assert.match(verbose.stdout, /^node v24\.\d+\.\d+ \(linux-x64, ABI 137\), single executable$/m);
  t.diagnostic(`executable runs node ${info.node}; this test runs on ${process.version}`);
});

test('issue 3 item 5: the executable alone in an empty directory serves GET /v3/auth/test', async (t) => {
  const why = skipReason();
  if (why) return t.skip(why);
  assert.ok(!existsSync(join(dir, 'node_modules')));
  const started = Date.now();
  const child = spawn(exe, ['serve', '--port-us', '0', '--port-eu', '0'], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const us = await waitForBanner(child);
    const res = await fetch(`${us}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.admin } });
    const firstAnswerMs = Date.now() - started;
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.teamName, 'Acme Corp');
    assert.equal(res.headers.get('x-ratelimit-bucket'), 'cheap');
    t.diagnostic(`first answered request ${firstAnswerMs} ms after spawn`);
    const refused = await fetch(`${us}/v3/members/999`, { headers: { 'X-API-KEY': KEYS.admin } });
    assert.equal(refused.status, 404);
    // Issue 17: the web console's client travels inside the executable (no esbuild, no files).
    const shell = await (await fetch(`${us}/app/checklists`)).text();
    const script = /src="(\/app\/_\/app\.[0-9a-f]{12}\.js)"/.exec(shell);
    assert.ok(script, shell);
    const js = await fetch(us + script[1]);
    assert.equal(js.status, 200);
    assert.ok((await js.text()).length > 10_000);
    // Statements come and go (garbage collected) and the process exits cleanly on SIGTERM: the
    // Node 24 abort of better-sqlite3 12.x (RemoveEnvironmentCleanupHook) must not happen.
    for (let i = 0; i < 150; i++) {
      const r = await fetch(`${us}/v3/checklists?pageSize=5&sort=name`, { headers: { 'X-API-KEY': KEYS.admin } });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    }
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null });
  } finally {
    child.kill('SIGTERM');
  }
});

test('issue 3 item 5: the executable serves MCP over stdio (SDK client, one tool call)', async (t) => {
  const why = skipReason();
  if (why) return t.skip(why);
  const client = new Client({ name: 'sea-smoke', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: exe, args: ['mcp'], cwd: dir, env: cleanEnv({ SVC_API_KEY: KEYS.member }), stderr: 'pipe' }));
  try {
    const r = await callTool(client, 'get_member', { memberId: 103 });
    assert.equal(r.isError, false);
    assert.equal(r.body.email, 'mia@acme.test');
  } finally {
    await client.close();
  }
});

test('issue 3 item 5: node dist/wfe.cjs (not a SEA) finds the native addon too', (t) => {
  const why = skipReason();
  if (why) return t.skip(why);
  const db = join(dir, 'plain.sqlite');
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'wfe.cjs'), 'seed', '--db', db], { cwd: dir, env: cleanEnv({ WFE_CLI: '1' }), encoding: 'utf8', timeout: PATIENCE_MS });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(db));
});

test('issue 24: node dist/wfe.cjs serves GET /v3/openapi.json and MCP tools/list from what the build made, byte for byte the live build', async (t) => {
  const why = skipReason();
  if (why) return t.skip(why);
  const bundle = readFileSync(join(ROOT, 'dist', 'wfe.cjs'), 'utf8');
  // The assets themselves (a key of the embedded object), not only the names src/prebuilt.ts asks for.
  for (const asset of ['prebuilt/openapi-paths.json.br', 'prebuilt/mcp-tools.json.br']) assert.ok(bundle.includes(`${JSON.stringify(asset)}: "`), `the bundle carries ${asset}`);
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'wfe.cjs'), 'serve', '--port-us', '0', '--port-eu', '0'], { cwd: dir, env: cleanEnv({ WFE_CLI: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    // Both regions' addresses: the document's `servers` names them.
    const banner = await bannerOf(child, /EU\s+REST http:\/\/\S+\/v3/);
    const urls = { US: /US\s+REST (http:\/\/\S+)\/v3/.exec(banner)![1], EU: /EU\s+REST (http:\/\/\S+)\/v3/.exec(banner)![1] };
    for (const region of ['US', 'EU'] as const) {
      const served = await (await fetch(`${urls[region]}/v3/openapi.json`)).text();
      assert.ok(served === openApiText(operations, urls), `${region}: the served document is the live build's text`);
    }
    const res = await fetch(`${urls.US}/mcp`, {
      method: 'POST',
      headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 200);
    const { result } = (await res.json()) as { result: { tools: unknown[] } };
    assert.ok(JSON.stringify(result.tools) === JSON.stringify(new CompiledTable(operations).toolDefs), 'tools/list is the live build\'s entries');
  } finally {
    child.kill('SIGTERM');
  }
});
