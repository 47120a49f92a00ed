// `npm run soak` (issue 37; docs/reliability.md "Soak"): a bounded run against a real
// `wfe serve --db FILE` child (the bundle, dist/wfe.cjs). Three parts:
//   csv       the 2.4-million-row CSV on each CSV route: answer time, a parallel request's
//             latency, and the peak resident memory it adds (goal < 50 MB);
//   webhooks  the fairness burst: a hanging target, a 500 target, a closed port and a healthy
//             receiver subscribed to new_checklist, 1,000 checklists; when the healthy one has all;
//   soak      SOAK_MINUTES (default 10) of REST, MCP and legacy reads and writes, webhook
//             deliveries to a slow target, and isolated instances created and deleted; errors,
//             p50/p99 per class, resident memory and open file descriptors over time.
// Options: --minutes N (or SOAK_MINUTES), --only csv|webhooks|soak. Writes bench/results/soak/<time>.json.
// Not part of the tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ROOT = join(__dirname, '..');
const KEY = 'acme-admin-key';
const V2 = { 'X-API-VERSION': '2.0' };
const JANE_DOE = '30000000-0000-4000-8000-000000000001';
const ONBOARDING = '20000000-0000-4000-8000-000000000001';
const EXPENSE = '20000000-0000-4000-8000-000000000002';
const COLLECT = '21000000-0000-4000-8000-000000000102';
const OFFICES = '50000000-0000-4000-8000-000000000001';
const OFFICE_NAME = '51000000-0000-4000-8000-000000000001';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const MINUTES = Number(arg('minutes') ?? process.env.SOAK_MINUTES ?? 10);
const ONLY = arg('only');
const runs = (part: string) => ONLY === undefined || ONLY === part;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createNetServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function ensureBundle(): void {
  if (existsSync(join(ROOT, 'dist', 'wfe.cjs'))) return;
  const r = spawnSync(process.execPath, ['build.mjs', '--bundle-only'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

interface Server {
  child: ChildProcess;
  url: string;
  dir: string;
  stop(): Promise<void>;
}

async function startServer(extra: string[] = []): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-soak-'));
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist', 'wfe.cjs'), 'serve', '--db', join(dir, 'soak.sqlite'), '--port-us', '0', '--port-eu', '0', '--standard-budget', '1000000000', '--cheap-budget', '1000000000', ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, WFE_CLI: '1' } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`wfe serve did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /US\s+REST (http:\/\/\S+)\/v3/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`wfe serve exited with ${code}: ${out}`)));
  });
  child.stdout!.resume();
  return {
    child,
    url,
    dir,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; ms: number }> {
  const t = performance.now();
  const res = await fetch(url + path, {
    method,
    headers: { 'X-API-KEY': KEY, ...(body !== undefined && typeof body !== 'string' && !(body instanceof FormData) ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t;
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, ms };
}

/** A receiver: 'ok' answers 200, 'slow' 200 after delayMs, 'hang' never, 'fail' 500. */
async function receiver(kind: 'ok' | 'slow' | 'hang' | 'fail', delayMs = 2000) {
  let count = 0;
  const hanging: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      count++;
      if (kind === 'hang') hanging.push(res);
      else if (kind === 'fail') res.writeHead(500).end('no');
      else if (kind === 'slow') setTimeout(() => res.writeHead(200).end('ok'), delayMs);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/* ── csv ─────────────────────────────────────────────────────────────────── */

async function csvPart(): Promise<Record<string, unknown>[]> {
  const s = await startServer();
  const pid = s.child.pid!;
  const huge = Buffer.from('Name\n' + 'x\n'.repeat(2_400_000));
  const b64 = huge.toString('base64');
  const rows: Record<string, unknown>[] = [];
  const routes: [string, () => Promise<{ status: number; ms: number }>][] = [
    ['POST /v3/data-sets/import', () => call(s.url, 'POST', '/v3/data-sets/import', { name: 'Huge', file: { name: 'huge.csv', data: b64 } })],
    ['POST /v3/data-sets/{key}/import', () => call(s.url, 'POST', `/v3/data-sets/${OFFICES}/import`, { file: { name: 'huge.csv', data: b64 } })],
    ['POST /api/data-sets/import (create)', () => call(s.url, 'POST', '/api/data-sets/import', form({}, huge), V2)],
    ['POST /api/data-sets/import (replace)', () => call(s.url, 'POST', '/api/data-sets/import', form({ mode: 'replace', dataSetId: OFFICES }, huge), V2)],
  ];
  try {
    // Warm: each route once with a small file, so code loading is not counted as the CSV's memory.
    await call(s.url, 'POST', '/v3/data-sets/import', { name: 'Warm', file: { name: 'w.csv', data: Buffer.from('Name\nx\n').toString('base64') } });
    await call(s.url, 'POST', '/api/data-sets/import', form({ name: 'Warm2' }, Buffer.from('Name\nx\n')), V2);
    for (const [name, send] of routes) {
      await sleep(1000);
      const base = rssMb(pid);
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 5);
      const importing = send();
      await sleep(5);
      const probe = await call(s.url, 'GET', '/v3/auth/test');
      const r = await importing;
      await sleep(200);
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(pid));
      rows.push({ route: name, status: r.status, answerMs: round(r.ms, 0), parallelRequestMs: round(probe.ms, 0), rssBeforeMb: round(base), peakAddedMb: round(peak - base), rssAfterMb: round(rssMb(pid)) });
    }
  } finally {
    await s.stop();
  }
  return rows;
}

function form(fields: Record<string, string>, file: Buffer): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set('file', new Blob([new Uint8Array(file)]), 'huge.csv');
  return fd;
}

/* ── webhooks ─────────────────────────────────────────────────────────────── */

/** One burst of 1,000 checklists to a healthy receiver, alone or beside the three bad targets. */
async function fairnessBurst(withBadTargets: boolean): Promise<Record<string, unknown>> {
  const s = await startServer();
  const [healthy, hanging, failing] = [await receiver('ok'), await receiver('hang'), await receiver('fail')];
  const closed = `http://127.0.0.1:${await freePort()}/hook`;
  try {
    for (const targetUrl of withBadTargets ? [hanging.url, failing.url, closed, healthy.url] : [healthy.url]) {
      const r = await call(s.url, 'POST', '/v3/webhooks', { eventType: 'new_checklist', targetUrl, scope: { type: 'Template', key: EXPENSE } });
      if (r.status !== 201) throw new Error(`subscribe: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) {
      const r = await call(s.url, 'POST', '/api/checklist/create-many', { templateKey: EXPENSE, checklistNames: Array.from({ length: 100 }, (_, j) => `Burst ${i * 100 + j}`) }, V2);
      if (r.status !== 200) throw new Error(`create-many: ${r.status}`);
    }
    const burst = performance.now();
    while (healthy.count < 1000 && performance.now() - burst < 120_000) await sleep(20);
    const done = performance.now();
    return {
      burstMs: round(burst - t0, 0),
      healthyAllDeliveredMsAfterBurst: healthy.count >= 1000 ? round(done - burst, 0) : null,
      healthyReceived: healthy.count,
      ...(withBadTargets ? { hangingReceived: hanging.count, failingReceived: failing.count } : {}),
    };
  } finally {
    await s.stop();
    await Promise.all([healthy.close(), hanging.close(), failing.close()]);
  }
}

/** What three bad targets cost a healthy one: the same burst alone and beside them. */
async function webhooksPart(): Promise<Record<string, unknown>> {
  return { alone: await fairnessBurst(false), besideHangingFailingClosed: await fairnessBurst(true) };
}

/* ── soak ─────────────────────────────────────────────────────────────────── */

class Stats {
  readonly ms: number[] = [];
  ok = 0;
  errors = 0;
  readonly statuses = new Map<string, number>();
  note(status: number | string, ms: number, ok: boolean): void {
    this.ms.push(ms);
    if (ok) this.ok++;
    else this.errors++;
    this.statuses.set(String(status), (this.statuses.get(String(status)) ?? 0) + 1);
  }
  summary() {
    const sorted = [...this.ms].sort((a, b) => a - b);
    return { requests: sorted.length, errors: this.errors, p50Ms: round(pct(sorted, 0.5)), p99Ms: round(pct(sorted, 0.99)), maxMs: round(sorted.at(-1) ?? NaN), statuses: Object.fromEntries(this.statuses) };
  }
}

async function soakPart(minutes: number): Promise<Record<string, unknown>> {
  const s = await startServer(['--max-instances', '20']);
  const pid = s.child.pid!;
  const slow = await receiver('slow', 2000);
  const stats: Record<string, Stats> = {};
  const stat = (k: string) => (stats[k] ??= new Stats());
  const until = performance.now() + minutes * 60_000;
  const samples: { atS: number; rssMb: number; fds: number }[] = [];
  const t0 = performance.now();
  const sample = () => samples.push({ atS: round((performance.now() - t0) / 1000, 0), rssMb: round(rssMb(pid)), fds: fds(pid) });
  sample();
  const sampler = setInterval(sample, 10_000);

  const timed = async (k: string, fn: () => Promise<{ status: number | string; ok: boolean }>) => {
    const t = performance.now();
    try {
      const r = await fn();
      stat(k).note(r.status, performance.now() - t, r.ok);
    } catch (e) {
      stat(k).note(`error: ${(e as Error).message}`, performance.now() - t, false);
    }
  };
  const rest = async (k: string, method: string, path: string, body?: unknown, headers?: Record<string, string>, want = [200, 201, 204]) => {
    let out: any;
    await timed(k, async () => {
      const r = await call(s.url, method, path, body, headers);
      out = r.body;
      return { status: r.status, ok: want.includes(r.status) };
    });
    return out;
  };
  const loop = async (fn: () => Promise<void>, pauseMs = 0) => {
    while (performance.now() < until) {
      await fn();
      if (pauseMs) await sleep(pauseMs);
    }
  };

  const sub = await call(s.url, 'POST', '/v3/webhooks', { eventType: 'new_checklist', targetUrl: slow.url, scope: { type: 'Template', key: ONBOARDING } });
  if (sub.status !== 201) throw new Error(`subscribe: ${sub.status}`);
  const mcp = new Client({ name: 'wfe-soak', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { 'X-API-KEY': KEY } } }));
  const tool = (k: string, name: string, args: Record<string, unknown>) =>
    timed(k, async () => {
      const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean };
      return { status: r.isError ? 'isError' : 'ok', ok: !r.isError };
    });

  try {
    await Promise.all([
      // REST reads
      loop(async () => void (await rest('rest read: GET /v3/checklists/{key}', 'GET', `/v3/checklists/${JANE_DOE}`))),
      loop(async () => void (await rest('rest read: GET /v3/templates', 'GET', '/v3/templates'))),
      // REST writes: a checklist started (a new_checklist delivery to the slow target), commented, deleted
      loop(async () => {
        const c = await rest('rest write: POST /v3/checklists', 'POST', '/v3/checklists', { templateKey: ONBOARDING, name: 'Soak' });
        if (!c?.key) return;
        await rest('rest write: POST comment', 'POST', `/v3/checklists/${c.key}/tasks/${COLLECT}/comments`, { html: '<p>soak</p>' });
        await rest('rest write: DELETE /v3/checklists/{key}', 'DELETE', `/v3/checklists/${c.key}`);
      }),
      // MCP reads and writes
      loop(() => tool('mcp read: get_task', 'get_task', { checklistKey: JANE_DOE, taskKey: COLLECT })),
      loop(() => tool('mcp write: add_task_comment', 'add_task_comment', { checklistKey: JANE_DOE, taskKey: COLLECT, html: '<p>soak via MCP</p>' }), 20),
      // Legacy reads and writes (a record added and deleted)
      loop(async () => void (await rest('legacy read: GET /api/data-sets/{id}/records', 'GET', `/api/data-sets/${OFFICES}/records`, undefined, V2))),
      loop(async () => {
        const r = await rest('legacy write: POST /api/data-sets/{id}/records', 'POST', `/api/data-sets/${OFFICES}/records`, { values: { [OFFICE_NAME]: 'Soak office' } }, V2);
        if (r?.id) await rest('legacy write: DELETE /api/data-sets/{id}/records/{id}', 'DELETE', `/api/data-sets/${OFFICES}/records/${r.id}`, undefined, V2, [200, 204]);
      }),
      // Isolated instances created, used and deleted
      loop(async () => {
        const made = await rest('instances: POST /_emulator/instances', 'POST', '/_emulator/instances', undefined, undefined, [201]);
        if (!made?.id) return;
        await timed('instances: GET /v3/checklists on the instance', async () => {
          const r = await fetch(`${made.baseUrls.US}/v3/checklists`, { headers: { 'X-API-KEY': KEY } });
          await r.arrayBuffer();
          return { status: r.status, ok: r.status === 200 };
        });
        await rest('instances: DELETE /_emulator/instances/{id}', 'DELETE', `/_emulator/instances/${made.id}`, undefined, undefined, [200, 204]);
      }, 500),
    ]);
  } finally {
    clearInterval(sampler);
    sample();
    await mcp.close().catch(() => {});
  }
  const deliveries = await call(s.url, 'GET', '/_emulator/webhooks/sender');
  const delivered = (await call(s.url, 'GET', '/_emulator/webhooks/deliveries?status=delivered&limit=1000')).body?.items?.length;
  await s.stop();
  await slow.close();
  return {
    minutes,
    classes: Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v.summary()])),
    totalRequests: Object.values(stats).reduce((n, v) => n + v.ms.length, 0),
    totalErrors: Object.values(stats).reduce((n, v) => n + v.errors, 0),
    slowTargetReceived: slow.count,
    deliveredRowsSeen: delivered,
    senderAtEnd: deliveries.body,
    samples,
  };
}

async function main(): Promise<void> {
  ensureBundle();
  const out: Record<string, unknown> = { at: new Date().toISOString(), machine: { cpus: cpus().length, load: loadavg().map((l) => round(l, 2)) } };
  if (runs('csv')) {
    out.csv = await csvPart();
    console.log('CSV (2.4 million rows, 4.8 MB):');
    console.table(out.csv);
  }
  if (runs('webhooks')) {
    out.webhooks = await webhooksPart();
    console.log('Fair delivery (1,000 checklists; a healthy receiver alone, then beside a hanging, a 500 and a closed-port target):', out.webhooks);
  }
  if (runs('soak')) {
    const soak = await soakPart(MINUTES);
    out.soak = soak;
    console.log(`Soak, ${MINUTES} min: ${soak.totalRequests} requests, ${soak.totalErrors} errors; slow target received ${soak.slowTargetReceived}`);
    console.table(soak.classes);
    console.table(soak.samples);
  }
  // A folder of its own: bench/results/*.json are `npm run bench`'s (the README quotes the latest).
  const dir = join(ROOT, 'bench', 'results', 'soak');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.log(`written ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
