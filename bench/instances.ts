// Bench rows of isolated instances (docs/instances.md): how long POST /_emulator/instances
// takes to answer (the instance listening on both ports), and the resident memory each
// instance adds to the server. `BENCH_ONLY=instances npm run bench` runs only these rows.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Row } from './row';

const KEY = 'acme-admin-key';
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
/** CPU seconds (user + system) the server has used: robust where wall time is not (a shared, loaded machine). */
const cpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function create(url: string, body?: unknown): Promise<{ id: string; baseUrls: { US: string } }> {
  const r = await fetch(`${url}/_emulator/instances`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as { id: string; baseUrls: { US: string } };
}

const remove = async (url: string, id: string) => void (await (await fetch(`${url}/_emulator/instances/${id}`, { method: 'DELETE' })).arrayBuffer());

export async function instanceRows(root: string, samples = 30, memoryCount = 40): Promise<Row[]> {
  const child = spawn(process.execPath, [join(root, 'dist', 'wfe.cjs'), 'serve', '--port-us', '0', '--port-eu', '0', '--max-instances', String(memoryCount + 10)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WFE_CLI: '1' },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /US\s+REST (http:\/\/\S+)\/v3/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`wfe serve exited with ${code}: ${out}`)));
    });
    // Memory: RSS of the server at rest, then with `memoryCount` instances that each answered a v3 and a control request.
    // One first, deleted: code loaded and compiled once, and the prepared image, are not per instance.
    const first = await create(url);
    await (await fetch(`${first.baseUrls.US}/v3/checklists`, { headers: { 'X-API-KEY': KEY } })).arrayBuffer();
    await remove(url, first.id);
    await new Promise((r) => setTimeout(r, 500));
    const before = rss(child.pid!);
    const made: string[] = [];
    for (let i = 0; i < memoryCount; i++) {
      const d = await create(url);
      made.push(d.id);
      await (await fetch(`${d.baseUrls.US}/v3/checklists`, { headers: { 'X-API-KEY': KEY } })).arrayBuffer();
      await (await fetch(`${d.baseUrls.US}/_emulator/health`)).arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 500));
    const per = round((rss(child.pid!) - before) / memoryCount);
    for (const id of made) await remove(url, id);
    await new Promise((r) => setTimeout(r, 500));
    const rows: Row[] = [];
    rows.push({
      name: `Resident memory per instance (${memoryCount} instances on a fresh server, each having answered GET /v3/checklists)`,
      note: `${per} MB each (server at rest ${round(before)} MB; ${round(rss(child.pid!))} MB after deleting them all)`,
      target: '< 20 MB',
      met: per < 20,
    });
    // Start-up: POST to 201, sequential, each deleted before the next (a running clock:
    // the prepared image is reused, as in a test suite creating one instance per test).
    const times = async (body: (i: number) => unknown): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < samples + 3; i++) {
        const t = performance.now();
        const d = await create(url, body(i));
        const ms = performance.now() - t;
        if (i >= 3) out.push(ms); // the first ones also load and compile the code paths
        await remove(url, d.id);
      }
      return out.sort((a, b) => a - b);
    };
    const cpuBefore = cpu(child.pid!);
    const running = await times(() => undefined);
    // Server CPU per create and delete (the warm-up ones included).
    const cpuMs = round(((cpu(child.pid!) - cpuBefore) * 1000) / (samples + 3));
    // A frozen clock at a new instant each time: no image to reuse, the fixture is loaded.
    const fresh = await times((i) => ({ clock: { now: new Date(Date.UTC(2025, 0, 1, 9, i)).toISOString(), frozen: true } }));
    const p50 = round(pct(running, 0.5));
    rows.push(
      {
        name: `POST /_emulator/instances to 201 (instance listening), demo fixture, running clock (${samples} sequential)`,
        p50,
        p99: round(pct(running, 0.99)),
        note: `server CPU ${cpuMs} ms per create + delete; frozen clock at a new instant each time (fixture loaded, no image): p50 ${round(pct(fresh, 0.5))} ms`,
        target: '< 50 ms p50 (goal < 20 ms)',
        met: p50 < 50,
      },
    );
    return rows;
  } finally {
    child.kill('SIGTERM');
  }
}
