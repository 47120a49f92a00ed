// `npm run bench` (issue 3 item 6): the emulator against a raw node:http server
// answering a fixed JSON body, in the same run, on loopback, with autocannon.
// Prints a table and writes bench/results/<time>.json. Not part of the tests.
// Runs the bundle (dist/wfe.cjs) and the single executable (dist/wfe); builds them if missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { buildBigDatabase } from './big-db';
import { dataSetBench } from './data-sets';
import { upgradeBench } from './upgrades';
import { instanceRows } from './instances';
import { mcpToolsRows } from './mcp-tools';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Row } from './row';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AcResult>;

interface AcResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

const ROOT = join(__dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEY = 'acme-admin-key';
const JANE_DOE = '30000000-0000-4000-8000-000000000001';
const ONBOARDING = '20000000-0000-4000-8000-000000000001'; // Employee Onboarding (the write classes' checklists)
const TASK = '21000000-0000-4000-8000-000000000106'; // First Day Welcome on Jane Doe's checklist (detail read)
const WRITE_TASK = '21000000-0000-4000-8000-000000000104'; // Manager approval: no required field, not halted (write pair)

function ensureBuilt(): void {
  if (existsSync(join(ROOT, 'dist', 'wfe.cjs')) && existsSync(join(ROOT, 'dist', 'wfe'))) return;
  process.stderr.write('bench: building dist/wfe.cjs and dist/wfe first...\n');
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what}: nothing matching ${pattern} within 15 s: ${out}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${out}`)));
  });
}

const RAW_BODY = JSON.stringify({ status: 'ok', teamId: '10000000-0000-4000-8000-000000000001', teamName: 'Acme Corp', region: 'US' });

async function startBaseline(): Promise<{ url: string; child: ChildProcess }> {
  const body = RAW_BODY;
  const src = `const b=${JSON.stringify(body)};const s=require('node:http').createServer((q,r)=>{r.writeHead(200,{'Content-Type':'application/json; charset=utf-8','Content-Length':Buffer.byteLength(b)});r.end(b)});s.listen(0,'127.0.0.1',()=>console.log('port '+s.address().port))`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitFor(child, /port (\d+)/, 'baseline');
  return { url: `http://127.0.0.1:${m[1]}`, child };
}

const AUTH_TEST_BODY_JS = `JSON.stringify({status:'ok',teamId:'10000000-0000-4000-8000-000000000001',teamName:'Acme Corp',region:'US',isEnterprise:true,apiKey:{name:"Ada's integration",createdDateTime:new Date().toISOString(),actsAs:{type:'member',id:101,email:'ada@acme.test',name:'Ada Admin',role:'Administrator'}}})`;
const AUTH_TEST_HEADERS_JS = `{'Content-Type':'application/json; charset=utf-8','X-Request-Id':'req_'+crypto.randomUUID().replace(/-/g,''),'X-RateLimit-Bucket':'cheap','X-RateLimit-Limit':'10000','X-RateLimit-Remaining':'9999','X-RateLimit-Reset':'1795240800'}`;

/** The transport the emulator's v3 routes use, with no emulator logic: node:http and
 * itty-router's route table (src/transports/http/fast-path.ts), answering the auth-test body
 * with the same headers, reading the key header. The ceiling any v3 route can reach. */
async function startNativeStack(fixed = false): Promise<{ url: string; child: ChildProcess }> {
  // fixed: raw's own body and headers, so only the transport and the router differ from raw.
  const answer = fixed
    ? `const b=${JSON.stringify(RAW_BODY)};res.writeHead(200,{'Content-Type':'application/json; charset=utf-8','Content-Length':Buffer.byteLength(b)});res.end(b);return`
    : `const k=q.headers['x-api-key'];const b=${AUTH_TEST_BODY_JS};const h=${AUTH_TEST_HEADERS_JS};h['Content-Length']=String(Buffer.byteLength(b));res.writeHead(200,h);res.end(b);return`;
  const src = `const {Router}=require(${JSON.stringify(join(ROOT, 'node_modules', 'itty-router'))});
const r=Router();r.get('/v3/auth/test',1);const routes=r.routes;
const s=require('node:http').createServer((q,res)=>{const u=q.url,i=u.indexOf('?'),p=i<0?u:u.slice(0,i);
for(const [m,re] of routes)if(m===q.method&&re.exec(p)){${answer}}
res.writeHead(404);res.end()});s.listen(0,'127.0.0.1',()=>console.log('port '+s.address().port))`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitFor(child, /port (\d+)/, 'native stack');
  return { url: `http://127.0.0.1:${m[1]}`, child };
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** The peer users would pick instead: json-server 1.x serving one task by id from a db file. */
async function startJsonServer(): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-bench-js-'));
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ tasks: [{ id: TASK, name: 'First Day Welcome', status: 'NotComplete', checklistKey: JANE_DOE }] }));
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'json-server', 'lib', 'bin.js'), join(dir, 'db.json'), '--port', String(port), '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'], cwd: dir });
  await waitFor(child, /Endpoints/, 'json-server');
  return { url: `http://127.0.0.1:${port}`, child, dir };
}

/** The previous stack with no emulator logic: itty-router behind @hono/node-server answering the
 * auth-test body with the same headers, reading the key header (still the path of /mcp, /api, /_emulator). */
async function startBareStack(): Promise<{ url: string; child: ChildProcess }> {
  const src = `const {getRequestListener}=require(${JSON.stringify(join(ROOT, 'node_modules', '@hono', 'node-server'))});
const {Router}=require(${JSON.stringify(join(ROOT, 'node_modules', 'itty-router'))});
const r=Router();r.get('/v3/auth/test',async(q)=>{const k=q.headers.get('x-api-key');
const b=JSON.stringify({status:'ok',teamId:'10000000-0000-4000-8000-000000000001',teamName:'Acme Corp',region:'US',isEnterprise:true,apiKey:{name:"Ada's integration",createdDateTime:new Date().toISOString(),actsAs:{type:'member',id:101,email:'ada@acme.test',name:'Ada Admin',role:'Administrator'}}});
return new Response(b,{status:200,headers:{'Content-Type':'application/json; charset=utf-8','X-Request-Id':'req_'+crypto.randomUUID().replace(/-/g,''),'X-RateLimit-Bucket':'cheap','X-RateLimit-Limit':'10000','X-RateLimit-Remaining':'9999','X-RateLimit-Reset':'1795240800'}})});
const s=require('node:http').createServer(getRequestListener((q)=>r.fetch(q)));s.listen(0,'127.0.0.1',()=>console.log('port '+s.address().port))`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitFor(child, /port (\d+)/, 'bare stack');
  return { url: `http://127.0.0.1:${m[1]}`, child };
}

async function startEmulator(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'wfe.cjs'), 'serve', '--port-us', '0', '--port-eu', '0', '--standard-budget', '1000000000', '--cheap-budget', '1000000000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WFE_CLI: '1' },
  });
  const m = await waitFor(child, /US\s+REST (http:\/\/\S+)\/v3/, 'emulator');
  return { url: m[1], child };
}

const rssMb = (pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : NaN;
};

async function cannon(url: string, extra: Record<string, unknown> = {}): Promise<AcResult> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { 'X-API-KEY': KEY }, ...extra });
}

/**
 * autocannon at 1,000 req/s over 10 connections, warmed at that pace for 3 s first, as every row is
 * warmed with its own load (the first paced seconds against any server read a p99 two to four
 * times the next ones: raw node:http alone on an idle machine, 9 ms then 4 ms). autocannon's rate
 * is a budget per second: each connection sends its 100 requests of the second one after another,
 * so the row is bursts of 10 requests in flight, and its p99 follows the server's CPU per request.
 */
async function pacedRun(url: string): Promise<AcResult> {
  const PACED = { overallRate: 1000, connections: 10 };
  await cannon(url, { ...PACED, duration: 3 });
  return cannon(url, PACED);
}

/** CPU seconds (user + system) a process has used: robust where req/s are not (a shared, loaded machine). */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100/s on Linux)
}

/** A run with the server's CPU time per request beside it (note: `CPU n us/req`). */
async function cannonCpu(pid: number, url: string, extra: Record<string, unknown> = {}): Promise<AcResult & { cpuUs: number }> {
  const before = cpuSeconds(pid);
  const r = await cannon(url, extra);
  return { ...r, cpuUs: Math.round(((cpuSeconds(pid) - before) * 1e6) / Math.max(1, r.requests.total)) };
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

function row(name: string, r: AcResult & { cpuUs?: number }, base?: number, target?: { ratio: number; peer?: { rps: number; times: number } }): Row {
  const out: Row = { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
  if (base) out.ratio = round(r.requests.average / base, 2);
  if (target && out.ratio !== undefined) {
    out.target = `>= ${target.ratio * 100}% of raw`;
    out.met = out.ratio >= target.ratio;
    if (target.peer) {
      out.target += target.peer.times === 1 ? ' and >= json-server' : ` and >= ${target.peer.times}x json-server`;
      out.met = out.met && r.requests.average >= target.peer.rps * target.peer.times;
    }
  }
  const notes: string[] = [];
  if (r.cpuUs !== undefined) notes.push(`CPU ${r.cpuUs} us/req`);
  if (r.non2xx || r.errors || r.timeouts) notes.push(`${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  if (notes.length) out.note = notes.join('; ');
  return out;
}

async function routesByTool(url: string): Promise<Map<string, { method: string; path: string }>> {
  const doc = (await (await fetch(`${url}/v3/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-mcp-tool'?: string }>> };
  const out = new Map<string, { method: string; path: string }>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) if (op['x-mcp-tool']) out.set(op['x-mcp-tool'], { method: method.toUpperCase(), path });
  }
  return out;
}

/** p50/p99 of sequential tools/call get_member {memberId: 103} against a stdio server (after 200 warm-up calls). */
async function mcpCallTimes(command: string, args: string[], samples: number): Promise<{ p50: number; p99: number }> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), WFE_CLI: '1', SVC_API_KEY: KEY }, stderr: 'inherit' }));
  const times: number[] = [];
  try {
    for (let i = 0; i < samples + 200; i++) {
      const t = performance.now();
      const r = await client.callTool({ name: 'get_member', arguments: { memberId: 103 } });
      if (r.isError) throw new Error(`get_member failed: ${JSON.stringify(r.structuredContent)}`);
      if (i >= 200) times.push(performance.now() - t); // first 200 warm up the JIT
    }
  } finally {
    await client.close();
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))], 3);
  return { p50: pct(50), p99: pct(99) };
}

/**
 * Our `wfe mcp` tools/call beside the ceiling: the SDK's own stdio server answering a constant
 * (bench/mcp-bare.cjs), measured alternately in the same run (two rounds each, the better p50 kept).
 */
async function mcpStdio(samples: number): Promise<Row[]> {
  const ours = [join(ROOT, 'dist', 'wfe.cjs'), 'mcp', '--standard-budget', '1000000000'];
  const bare = [join(ROOT, 'bench', 'mcp-bare.cjs')];
  const best = (a: { p50: number; p99: number }, b: { p50: number; p99: number }) => (a.p50 <= b.p50 ? a : b);
  let o = await mcpCallTimes(process.execPath, ours, samples);
  let b = await mcpCallTimes(process.execPath, bare, samples);
  o = best(o, await mcpCallTimes(process.execPath, ours, samples));
  b = best(b, await mcpCallTimes(process.execPath, bare, samples));
  const ratio = round(o.p50 / b.p50, 2);
  return [
    { name: `MCP stdio tools/call: the SDK's own server answering a constant (ceiling; ${samples} sequential)`, p50: b.p50, p99: b.p99 },
    { name: `MCP stdio tools/call get_member (${samples} sequential)`, p50: o.p50, p99: o.p99, note: `${ratio}x the SDK's own server`, target: '<= 1.2x the SDK server', met: ratio <= 1.2 },
  ];
}

/** Median wall time of running a command to its end (start-up rows). */
function medianRun(cmd: string, args: string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(cmd, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return round(times[Math.floor(times.length / 2)], 1);
}

/** `wfe --help` and `wfe --version` of the single executable against `node -e 0`, in the same run. */
function cliStartup(nodeMs: number, runs: number): Row[] {
  return (['--version', '--help'] as const).map((flag) => {
    const ms = medianRun(join(ROOT, 'dist', 'wfe'), [flag], runs);
    const ratio = round(ms / nodeMs, 2);
    return { name: `Single executable: wfe ${flag} (median of ${runs})`, p50: ms, note: `${ratio}x node -e 0 (${nodeMs} ms)`, target: '<= 1.3x node -e 0', met: ratio <= 1.3 };
  });
}

/**
 * The write pair's two kinds of request, each measured alone (information). In the pair, the 50
 * connections complete and uncomplete one task, so a request either changes it (a real write) or
 * finds it already so (a repeat, answered from memory); how many are which depends on how the
 * connections interleave, and differs from run to run. Here: complete on a complete task (every
 * request a repeat), and each connection completing and uncompleting the stop task of a checklist
 * of its own (every request a real write). The pair's CPU per request lies between the two.
 */
async function writeClasses(url: string, pid: number, completePath: string, base: number): Promise<Row[]> {
  const H = { 'X-API-KEY': KEY, 'Content-Type': 'application/json' };
  const lists: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const r = await fetch(`${url}/v3/checklists`, { method: 'POST', headers: H, body: JSON.stringify({ templateKey: ONBOARDING, name: `Write bench ${i + 1}` }) });
    const body = (await r.json()) as { key: string };
    if (r.status !== 201) throw new Error(`POST /v3/checklists answered ${r.status}`);
    lists.push(body.key);
  }
  const pathOf = (list: string) => completePath.replace('{checklistKey}', list).replace('{taskKey}', WRITE_TASK);
  await fetch(`${url}${pathOf(lists[0])}`, { method: 'POST', headers: H });
  const repeats = await cannonCpu(pid, url, { requests: [{ method: 'POST', path: pathOf(lists[0]) }] });
  let next = 0;
  // autocannon's context is per connection: each takes a checklist of its own on its first request.
  const own = (method: string) => ({
    method,
    setupRequest: (req: Record<string, unknown>, context: { list?: string }) => ({ ...req, path: pathOf((context.list ??= lists[next++ % lists.length])) }),
  });
  const real = await cannonCpu(pid, url, { requests: [own('POST'), own('DELETE')] });
  return [row('POST .../complete on a complete task (every request a repeat; information)', repeats, base), row('POST+DELETE .../complete, each connection its own checklist (every request a real write; information)', real, base)];
}

/** POST /_emulator/reset, sequential, with a write before each so every reset has rows to replace. */
async function resetTimes(url: string, samples: number, frozen: boolean): Promise<Row> {
  await fetch(`${url}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ frozen }) });
  const path = `/v3/checklists/${JANE_DOE}/tasks/${WRITE_TASK}/complete`;
  const times: number[] = [];
  try {
    for (let i = 0; i < samples + 5; i++) {
      await (await fetch(`${url}${path}`, { method: 'POST', headers: { 'X-API-KEY': KEY } })).arrayBuffer();
      const t = performance.now();
      const r = await fetch(`${url}/_emulator/reset`, { method: 'POST' });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`reset answered ${r.status}`);
      if (i >= 5) times.push(performance.now() - t);
    }
  } finally {
    await fetch(`${url}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ frozen: false }) });
  }
  times.sort((a, b) => a - b);
  const p50 = round(times[Math.floor(times.length / 2)], 2);
  const p99 = round(times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], 2);
  return frozen
    ? { name: `POST /_emulator/reset, demo fixture, frozen clock (${samples} sequential)`, p50, p99, target: '<= 5 ms p50', met: p50 <= 5 }
    : { name: `POST /_emulator/reset, demo fixture, running clock (${samples} sequential; loads the fixture each time)`, p50, p99 };
}

/** The single executable's size in MB (README "Single executable" quotes it from the latest run). */
const exeMb = () => round(statSync(join(ROOT, 'dist', 'wfe')).size / 1_000_000, 1);

async function seaStartup(runs: number, nodeMs?: number): Promise<Row> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const child = spawn(join(ROOT, 'dist', 'wfe'), ['serve', '--port-us', '0', '--port-eu', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const m = await waitFor(child, /US\s+REST (http:\/\/\S+)\/v3/, 'single executable');
      const res = await fetch(`${m[1]}/v3/auth/test`, { headers: { 'X-API-KEY': KEY } });
      if (res.status !== 200) throw new Error(`auth test answered ${res.status}`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  times.sort((a, b) => a - b);
  const median = round(times[Math.floor(times.length / 2)], 1);
  if (nodeMs !== undefined) {
    const ratio = round(median / nodeMs, 2);
    return { name: `Single executable: start to first answered request (median of ${runs})`, p50: median, p99: round(times[times.length - 1], 1), note: `${ratio}x node -e 0 (${nodeMs} ms); executable ${exeMb()} MB`, target: '<= 2x node -e 0', met: ratio <= 2 };
  }
  return { name: `Single executable: start to first answered request (median of ${runs})`, p50: median, p99: round(times[times.length - 1], 1), target: '< 300 ms', met: median < 300 };
}

/** Issue 16: the library's startEmulator, in this process, demo fixture, to ready (both regional ports listening). */
async function libraryStartup(runs: number): Promise<Row> {
  // The shipped bundle (dist/lib/index.cjs), as an installed package runs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require(join(ROOT, 'dist', 'lib', 'index.cjs')) as typeof import('../src/library');
  const measure = async (listen: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const t = performance.now();
      const emu = await lib.startEmulator({ listen });
      const ms = performance.now() - t;
      if (i > 0) times.push(ms); // the first start also loads and compiles the module
      await emu.close();
    }
    return times.sort((a, b) => a - b);
  };
  const sockets = await measure(true);
  const inProcess = await measure(false);
  const median = round(sockets[Math.floor(sockets.length / 2)], 1);
  return {
    name: `Library startEmulator() in process, demo fixture, to ready (median of ${runs})`,
    p50: median,
    p99: round(sockets[sockets.length - 1], 1),
    note: `listen: false (in-process fetch only): median ${round(inProcess[Math.floor(inProcess.length / 2)], 1)} ms`,
    target: '< 50 ms',
    met: median < 50,
  };
}

/** Resident memory serving a file database of `count` checklists (issue 3 target: < 300 MB at 100,000). */
async function bigDatabaseMemory(count: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-bench-'));
  const file = join(dir, 'big.db');
  const t0 = performance.now();
  buildBigDatabase(file, count);
  const built = Math.round((performance.now() - t0) / 1000);
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'wfe.cjs'), 'serve', '--db', file, '--port-us', '0', '--port-eu', '0', '--standard-budget', '1000000000', '--cheap-budget', '1000000000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WFE_CLI: '1' },
  });
  try {
    const m = await waitFor(child, /US\s+REST (http:\/\/\S+)\/v3/, 'emulator on the big database');
    const url = m[1];
    let after: string | undefined;
    const t1 = performance.now();
    for (let page = 0; page < 20; page++) {
      const r = await fetch(`${url}/v3/checklists?pageSize=100${after ? `&after=${after}` : ''}`, { headers: { 'X-API-KEY': KEY } });
      const body = (await r.json()) as { nextCursor?: string };
      after = body.nextCursor;
      if (!after) break;
    }
    const listMs = Math.round((performance.now() - t1) / 20);
    await cannon(`${url}/v3/checklists?pageSize=100`, { duration: 3, connections: 10 });
    const rss = rssMb(child.pid!);
    return {
      name: `Peak RSS serving a file database of ${count.toLocaleString('en')} checklists (GET /v3/checklists paged)`,
      note: `${rss} MB; ~${listMs} ms per page of 100; built in ${built} s`,
      target: '< 300 MB',
      met: rss < 300,
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The Tasks grid on a generated workspace (issue 11): `wfe seed --generate`, then pages of
 * list_my_work walked through their cursors, one request at a time, for a member's own work,
 * an Administrator's assignee=all, and a filtered sort by due date. Target: p50 < 20 ms.
 */
async function myWorkOnGeneratedWorkspace(checklists: number): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-bench-grid-'));
  const file = join(dir, 'grid.db');
  const t0 = performance.now();
  const seeded = spawnSync(process.execPath, [join(ROOT, 'dist', 'wfe.cjs'), 'seed', '--db', file, '--generate', `checklists=${checklists},tasks=20`], {
    env: { ...process.env, WFE_CLI: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (seeded.status !== 0) throw new Error('wfe seed --generate failed');
  const built = Math.round((performance.now() - t0) / 1000);
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'wfe.cjs'), 'serve', '--db', file, '--port-us', '0', '--port-eu', '0', '--standard-budget', '1000000000', '--cheap-budget', '1000000000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WFE_CLI: '1' },
  });
  const rows: Row[] = [];
  try {
    const m = await waitFor(child, /US\s+REST (http:\/\/\S+)\/v3/, 'emulator on the generated workspace');
    const url = m[1];
    const cases: [string, string, string][] = [
      ['a member, own work (default arguments)', 'acme-member-key', ''],
      ['an Administrator, assignee=all', KEY, 'assignee=all'],
      ['an Administrator, one template, three statuses, sort=dueDateTime:desc', KEY, 'assignee=all&template=5f000000-0000-4000-8000-000000000003&status=Overdue,DueToday,DueInFuture&sort=dueDateTime:desc'],
    ];
    for (const [what, key, query] of cases) {
      const times: number[] = [];
      let total = 0;
      for (let pass = 0; pass < 4; pass++) {
        let after: string | undefined;
        for (let page = 0; page < 15; page++) {
          const t = performance.now();
          const r = await fetch(`${url}/v3/my-work?pageSize=50${query ? `&${query}` : ''}${after ? `&after=${after}` : ''}`, { headers: { 'X-API-KEY': key } });
          const body = (await r.json()) as { nextCursor?: string; total?: number };
          if (r.status !== 200) throw new Error(`list_my_work answered ${r.status}: ${JSON.stringify(body)}`);
          if (pass > 0) times.push(performance.now() - t); // the first pass warms up
          total = body.total ?? 0;
          after = body.nextCursor;
          if (!after) break;
        }
      }
      times.sort((a, b) => a - b);
      const p50 = round(times[Math.floor(times.length / 2)], 1);
      rows.push({
        name: `GET /v3/my-work on ${checklists.toLocaleString('en')} generated checklists (${(checklists * 20).toLocaleString('en')} tasks): ${what}, pages of 50`,
        p50,
        p99: round(times[times.length - 1], 1),
        note: `${times.length} sequential pages, total ${total.toLocaleString('en')}; built in ${built} s`,
        target: 'p50 < 20 ms',
        met: p50 < 20,
      });
    }
    const rss = rssMb(child.pid!);
    rows.push({ name: 'Peak RSS of the emulator serving the generated Tasks grid above', note: `${rss} MB`, target: '< 200 MB', met: rss < 200 });
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The Tasks grid on the demo fixture (issue 24): everyone's work, every status, a page of 50. */
async function myWorkRow(emu: { url: string; child: ChildProcess }, base: number): Promise<Row> {
  const url = `${emu.url}/v3/my-work?pageSize=50&assignee=all&status=all`;
  return row('GET /v3/my-work on the demo fixture (assignee=all, status=all, pageSize=50)', await cannonCpu(emu.child.pid!, url), base, { ratio: 0.25 });
}

/** BENCH_ONLY=my-work: raw and the Tasks grid row alone, in the same run. */
async function myWorkOnly(): Promise<void> {
  ensureBuilt();
  const baseline = await startBaseline();
  const emu = await startEmulator();
  try {
    await cannon(`${emu.url}/v3/my-work?assignee=all&status=all`, { duration: 2 });
    await cannon(`${baseline.url}/`, { duration: 2 });
    const raw = await cannonCpu(baseline.child.pid!, `${baseline.url}/`);
    const rows = [row('raw node:http fixed JSON (baseline)', raw, raw.requests.average), await myWorkRow(emu, raw.requests.average)];
    process.stdout.write(table(rows) + `\n\nload average ${loadavg().map((x) => round(x, 2)).join(' ')} at the end, autocannon -c ${CONNECTIONS} -d ${DURATION}\n`);
  } finally {
    emu.child.kill('SIGTERM');
    baseline.child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === 'my-work') return myWorkOnly();
  // BENCH_ONLY=instances: only the rows of isolated instances (bench/instances.ts).
  if (process.env.BENCH_ONLY === 'instances') {
    if (!existsSync(join(ROOT, 'dist', 'wfe.cjs'))) spawnSync(process.execPath, ['build.mjs', '--bundle-only'], { cwd: ROOT, stdio: 'inherit' });
    const rows = await instanceRows(ROOT);
    process.stdout.write(table(rows) + '\n');
    return;
  }
  // BENCH_ONLY=mcp-tools: the tools/list rows alone (bench/mcp-tools.ts).
  if (process.env.BENCH_ONLY === 'mcp-tools') {
    if (!process.env.WFE_BENCH_BUNDLE && !existsSync(join(ROOT, 'dist', 'wfe.cjs'))) spawnSync(process.execPath, ['build.mjs', '--bundle-only'], { cwd: ROOT, stdio: 'inherit' });
    process.stdout.write(table(await mcpToolsRows(ROOT)) + '\n');
    return;
  }
  // BENCH_ONLY=startup: the start-up, reset and MCP rows alone, with their yardsticks (node -e 0, the SDK's server).
  if (process.env.BENCH_ONLY === 'startup') {
    ensureBuilt();
    const rows: Row[] = [];
    const emu = await startEmulator();
    try {
      rows.push(...(await mcpStdio(2000)));
      rows.push(await resetTimes(emu.url, 100, true));
      rows.push(await resetTimes(emu.url, 30, false));
    } finally {
      emu.child.kill('SIGTERM');
    }
    const nodeMs = medianRun(process.execPath, ['-e', '0'], 9);
    rows.push({ name: 'node -e 0 (start-up baseline, median of 9)', p50: nodeMs });
    rows.push(await seaStartup(9, nodeMs));
    process.stdout.write(table(rows) + `\n\nload average ${loadavg().map((x) => round(x, 2)).join(' ')} at the end\n`);
    return;
  }
  // BENCH_ONLY=tasks: raw, json-server, task detail and the write pair only (a quick before/after).
  const tasksOnly = process.env.BENCH_ONLY === 'tasks';
  if (tasksOnly) {
    if (!existsSync(join(ROOT, 'dist', 'wfe.cjs'))) spawnSync(process.execPath, ['build.mjs', '--bundle-only'], { cwd: ROOT, stdio: 'inherit' });
  } else ensureBuilt();
  const started = Date.now();
  const rows: Row[] = [];
  const notes: string[] = [];
  const baseline = await startBaseline();
  const emu = await startEmulator();
  const idleRss = rssMb(emu.child.pid!, 'VmRSS');
  try {
    await cannon(`${baseline.url}/`, { duration: 2 });
    const raw = await cannonCpu(baseline.child.pid!, `${baseline.url}/`);
    const base = raw.requests.average;
    rows.push(row('raw node:http fixed JSON (baseline)', raw, base));
    if (!tasksOnly) {
      const router = await startNativeStack(true);
      try {
        await cannon(`${router.url}/v3/auth/test`, { duration: 2 });
        rows.push(row("node:http + itty-router route table, raw's body: the v3 transport and router, no logic", await cannonCpu(router.child.pid!, `${router.url}/v3/auth/test`), base, { ratio: 0.8 }));
      } finally {
        router.child.kill('SIGTERM');
      }
      const native = await startNativeStack();
      try {
        await cannon(`${native.url}/v3/auth/test`, { duration: 2 });
        rows.push(row('the same, answering the auth-test body and headers (request id, budget headers, a timestamp)', await cannonCpu(native.child.pid!, `${native.url}/v3/auth/test`), base));
      } finally {
        native.child.kill('SIGTERM');
      }
      const bare = await startBareStack();
      try {
        await cannon(`${bare.url}/v3/auth/test`, { duration: 2 });
        rows.push(row('itty-router + @hono/node-server, same body (the fetch path: /mcp, /api, /_emulator)', await cannonCpu(bare.child.pid!, `${bare.url}/v3/auth/test`), base));
      } finally {
        bare.child.kill('SIGTERM');
      }
    }
    let peer: { rps: number; times: number } | undefined;
    const js = await startJsonServer();
    try {
      await cannon(`${js.url}/tasks/${TASK}`, { duration: 2 });
      const r = await cannonCpu(js.child.pid!, `${js.url}/tasks/${TASK}`);
      rows.push(row('json-server 1.0.0-beta.15 GET /tasks/:id (peer)', r, base));
      peer = { rps: r.requests.average, times: 1 };
    } catch (e) {
      notes.push(`json-server row skipped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      js.child.kill('SIGTERM');
      rmSync(js.dir, { recursive: true, force: true });
    }
    // Warmed right before its rows, as every other server is: a warm-up a minute earlier (before the
    // peers' rows) left the first row 25% dearer in CPU per request, the JIT's and the heap's
    // idle-time work undone by the load, which is not what the row measures.
    await cannon(`${emu.url}/v3/auth/test`, { duration: 2 });
    if (!tasksOnly) rows.push(row('GET /v3/auth/test', await cannonCpu(emu.child.pid!, `${emu.url}/v3/auth/test`), base, { ratio: 0.5, peer: peer && { ...peer, times: 2 } }));

    const tools = await routesByTool(emu.url);
    const getTask = tools.get('get_task');
    if (getTask) {
      const path = getTask.path.replace('{checklistKey}', JANE_DOE).replace('{taskKey}', TASK);
      rows.push(row(`GET ${getTask.path} (task detail)`, await cannonCpu(emu.child.pid!, `${emu.url}${path}`), base, { ratio: 0.3, peer }));
    } else notes.push('task detail read skipped: no get_task route in this build');

    const complete = tools.get('complete_task');
    const uncomplete = tools.get('uncomplete_task');
    if (complete && uncomplete) {
      const path = complete.path.replace('{checklistKey}', JANE_DOE).replace('{taskKey}', WRITE_TASK);
      const probe = await fetch(`${emu.url}${path}`, { method: 'POST', headers: { 'X-API-KEY': KEY } });
      if (probe.ok) {
        const r = await cannonCpu(emu.child.pid!, emu.url, { requests: [{ method: 'POST', path }, { method: 'DELETE', path }] });
        rows.push(row('POST+DELETE .../complete (write pair)', r, base, { ratio: 0.25 }));
        if (tasksOnly) rows.push(...(await writeClasses(emu.url, emu.child.pid!, complete.path, base)));
      } else notes.push(`write pair skipped: POST complete answered ${probe.status}`);
    } else notes.push('complete/uncomplete pair skipped: no complete_task/uncomplete_task routes in this build');

    if (tasksOnly) {
      process.stdout.write(`${table(rows)}\n${notes.map((n) => `note: ${n}\n`).join('')}load average ${loadavg().map((x) => round(x, 2)).join(' ')} at the end\n`);
      return;
    }
    const myWork = tools.get('list_my_work');
    if (myWork) {
      rows.push(await myWorkRow(emu, base));
    } else {
      notes.push('list_my_work not in this build: GET /v3/members (a paged list) stands in for it');
      rows.push(row('GET /v3/members (list stand-in)', await cannon(`${emu.url}/v3/members?pageSize=50`), base, { ratio: 0.5 }));
    }

    // The peak of the -c 50 request rows alone: the Data Sets rows next replace 10,000 records and
    // import 5 MB files, a different load that the last row reads with everything else.
    const requestsRss = rssMb(emu.child.pid!);
    rows.push({ name: `Peak RSS of the emulator under the -c ${CONNECTIONS} request rows above (before the Data Sets rows)`, note: `${requestsRss} MB`, target: '< 200 MB', met: requestsRss < 200 });

    // Paced load on its own, before the Data Sets rows: a row measures its own workload, not the
    // wake of another's. The same row right after the imports is kept below for what it shows
    // (docs/performance.md, round 4: the first paced seconds after 5 MB imports are slower).
    const paced = await pacedRun(`${emu.url}/v3/auth/test`);
    rows.push({ ...row('GET /v3/auth/test paced at 1,000 req/s', paced), target: 'p99 < 5 ms', met: paced.latency.p99 < 5 });
    // The floors at the same pace, measured the same way: raw node:http's fixed body, and the
    // hand-written server answering the auth test's own body and headers (the request id, the
    // budget headers), which is as little as any server can do for this row's bytes.
    rows.push(row('raw node:http paced at 1,000 req/s (the same pace, baseline)', await pacedRun(`${baseline.url}/`)));
    const floor = await startNativeStack();
    try {
      rows.push(row('the hand-written auth-test server paced at 1,000 req/s (the same bytes as the emulator)', await pacedRun(`${floor.url}/v3/auth/test`)));
    } finally {
      floor.child.kill('SIGTERM');
    }

    // Data Sets (issue 13): bulk create, 5 MB CSV import, filtered sorted view page.
    rows.push(...(await dataSetBench(emu.url, KEY, emu.child.pid)));
    rows.push(row('GET /v3/auth/test paced at 1,000 req/s, right after the Data Sets rows', await pacedRun(`${emu.url}/v3/auth/test`)));
    // The write pair's two kinds of request, after the rows with targets: 30,000 real writes add
    // their activity and event rows to the in-memory database, which the memory rows above would read.
    if (complete && uncomplete) rows.push(...(await writeClasses(emu.url, emu.child.pid!, complete.path, base)));

    rows.push(...(await mcpStdio(2000)));
    rows.push(...(await mcpToolsRows(ROOT)));
    rows.push(await resetTimes(emu.url, 100, true));
    rows.push(await resetTimes(emu.url, 30, false));
    rows.push({ name: 'RSS of the emulator serving the demo fixture, at rest after start', note: `${idleRss} MB`, target: '< 100 MB', met: idleRss < 100 });
    const rss = rssMb(emu.child.pid!);
    rows.push({ name: `Peak RSS of the emulator after every row above (Data Sets bulk and 5 MB imports included)`, note: `${rss} MB` });
  } finally {
    emu.child.kill('SIGTERM');
    baseline.child.kill('SIGTERM');
  }
  const nodeMs = medianRun(process.execPath, ['-e', '0'], 9);
  rows.push({ name: 'node -e 0 (start-up baseline, median of 9)', p50: nodeMs });
  rows.push(await seaStartup(5, nodeMs));
  rows.push(...cliStartup(nodeMs, 9));
  rows.push(await libraryStartup(20));
  rows.push(...(await instanceRows(ROOT)));
  rows.push(await bigDatabaseMemory(Number(process.env.BENCH_CHECKLISTS ?? 100_000)));
  rows.push(...(await myWorkOnGeneratedWorkspace(Number(process.env.BENCH_GRID_CHECKLISTS ?? 100_000))));
  // The longest wait behind the upgrade worker (alone: node --import tsx bench/upgrades.ts).
  rows.push(...(await upgradeBench(Number(process.env.BENCH_UPGRADE_CHECKLISTS ?? 1000))));

  const result = {
    when: new Date().toISOString(),
    machine: { loadAverageAtStart: loadavg().map((x) => round(x, 2)), cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: round(totalmem() / 2 ** 30, 1), node: process.version },
    settings: { durationSeconds: DURATION, connections: CONNECTIONS },
    rows,
    notes,
    elapsedSeconds: round((Date.now() - started) / 1000, 1),
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const file = join(ROOT, 'bench', 'results', `${result.when.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(table(rows) + '\n');
  for (const n of notes) process.stdout.write(`note: ${n}\n`);
  process.stdout.write(`\n${result.machine.cpus} cores (load average ${result.machine.loadAverageAtStart.join(' ')} at start), ${result.machine.node}, autocannon -c ${CONNECTIONS} -d ${DURATION}; ${result.elapsedSeconds} s in all. Results: ${file}\n`);
}

function table(rows: Row[]): string {
  const head = ['Measure', 'req/s', 'p50 ms', 'p99 ms', 'vs raw', 'Target', 'Met', 'Note'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) {
    lines.push(
      `| ${[r.name, r.rps ?? '', r.p50 ?? '', r.p99 ?? '', r.ratio === undefined ? '' : `${Math.round(r.ratio * 100)}%`, r.target ?? '', r.met === undefined ? '' : r.met ? 'yes' : 'no', r.note ?? ''].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

main().catch((e) => {
  process.stderr.write(`bench: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
