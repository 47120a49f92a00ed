// Upgrade section of `npm run bench` (issue 20 "Background work in slices"): the longest
// wait of a request behind the upgrade worker rebuilding 1,000 checklists, in memory and on
// a file database (target under 50 ms), and how long the whole upgrade takes. `wfe serve`
// runs from source in a child process and requests arrive back to back from this one, as a
// client's would. Alone: `node --import tsx bench/upgrades.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Row } from './row';

const ROOT = join(__dirname, '..');

const KEY = 'acme-admin-key';
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function call(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, { method, headers: { 'X-API-KEY': KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** `wfe serve` from source in a child process: the requests come from outside, as a client's would. */
async function serveChild(db: string | undefined): Promise<{ child: ChildProcess; base: string }> {
  const args = ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'serve', '--port-us', '0', '--port-eu', '0', '--standard-budget', '1000000000', '--cheap-budget', '1000000000', ...(db ? ['--db', db] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, WFE_CLI: '1', WFE_UPGRADE_DELAY_MS: '60000' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`wfe serve did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /US\s+REST (http:\/\/[^/\s]+)\/v3/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`wfe serve exited with ${code}: ${out}`)));
  });
  return { child, base };
}

/** One measurement: `count` checklists upgraded by the background worker while requests run back to back. */
async function measure(count: number, db: string | undefined): Promise<{ maxWait: number; p99Wait: number; requests: number; upgradeMs: number }> {
  const { child, base } = await serveChild(db);
  try {
    const tpl = await call(base, 'POST', '/v3/templates', {
      name: 'Bench upgrade',
      tasks: [
        { ref: 'a', name: 'A', fields: [{ ref: 'note', type: 'ShortText', label: 'Note' }] },
        { ref: 'b', name: 'B' },
        { ref: 'c', name: 'C' },
      ],
    });
    for (let i = 0; i < count; i += 25) {
      await Promise.all(Array.from({ length: Math.min(25, count - i) }, (_, j) => call(base, 'POST', '/v3/checklists', { templateKey: tpl.key, name: `bench ${i + j}` })));
    }
    const doc = await call(base, 'GET', `/v3/templates/${tpl.key}/document`);
    doc.tasks[1].name = 'B renamed';
    doc.tasks.push({ ref: 'd', name: 'D' });
    await call(base, 'POST', `/v3/templates/${tpl.key}/versions`, doc);
    const queued = await call(base, 'POST', `/v3/templates/${tpl.key}/upgrades`, { all: true });
    if (queued.queued !== count) throw new Error(`queued ${queued.queued}, not ${count}`);
    const waits: number[] = [];
    // The clock moves past the queue delay: the worker's next poll starts the rebuilds.
    await fetch(`${base}/_emulator/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds: 61 }) });
    const t0 = performance.now();
    for (let i = 0; ; i++) {
      const r0 = performance.now();
      if (i % 20 === 19) {
        // Jobs run in queue order: the newest 500 (what the state lists) are the last to finish.
        const state = await (await fetch(`${base}/_emulator/upgrades`)).json();
        waits.push(performance.now() - r0);
        if (state.queued === 0) break;
      } else {
        await call(base, 'GET', '/v3/auth/test');
        waits.push(performance.now() - r0);
      }
      if (performance.now() - t0 > 120_000) throw new Error('the upgrade did not finish in 2 minutes');
    }
    const upgradeMs = performance.now() - t0;
    const sorted = [...waits].sort((a, b) => a - b);
    return { maxWait: sorted[sorted.length - 1] ?? 0, p99Wait: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0, requests: waits.length, upgradeMs };
  } finally {
    child.kill('SIGTERM');
  }
}

export async function upgradeBench(count = 1000): Promise<Row[]> {
  const rows: Row[] = [];
  for (const where of ['memory', 'file'] as const) {
    const dir = where === 'file' ? mkdtempSync(join(tmpdir(), 'wfe-bench-upg-')) : undefined;
    try {
      const m = await measure(count, dir && join(dir, 'bench.db'));
      rows.push({
        name: `Longest wait of a request behind an upgrade of ${count.toLocaleString('en')} checklists (${where === 'file' ? 'file database' : 'in memory'})`,
        p50: round(m.upgradeMs, 0),
        p99: round(m.maxWait, 1),
        note: `p99 column: the longest of ${m.requests} back-to-back requests (their p99 ${round(m.p99Wait, 1)} ms); p50 column: the whole upgrade, ms`,
        target: 'longest wait < 50 ms',
        met: m.maxWait < 50,
      });
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (require.main === module) {
  upgradeBench(Number(process.env.BENCH_UPGRADE_CHECKLISTS ?? 1000))
    .then((rows) => {
      for (const r of rows) process.stdout.write(`| ${r.name} | upgrade ${r.p50} ms | longest wait ${r.p99} ms | ${r.target} | ${r.met ? 'yes' : 'no'} | ${r.note} |\n`);
    })
    .catch((e) => {
      process.stderr.write(`bench: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    });
}
