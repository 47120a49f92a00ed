// What each memo (src/store/memo.ts) wins: the bench's read and write rows driven in process
// (the library's fetch, one request at a time), once with every memo on and once with one memo
// off (WFE_MEMO_OFF), alternating A and B (and their order) for ROUNDS rounds so the machine's
// load falls on both.
// Prints CPU microseconds per request per row (median of the rounds) and B's cost over A.
// Run: node --import tsx bench/memo-ab.ts [memo names...]   (none: every memo, and all at once)
// Not part of the tests; docs/performance.md "Memos: kept and removed" has a run.
import { startEmulator } from '../src/library';

const KEY = 'acme-admin-key';
const JANE_DOE = '30000000-0000-4000-8000-000000000001';
const TASK = '21000000-0000-4000-8000-000000000106';
const WRITE_TASK = '21000000-0000-4000-8000-000000000104';
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const N = Number(process.env.AB_REQUESTS ?? 400);

const MEMOS = [
  'resolved API key',
  'checklist by key',
  'checklist run row',
  'template version document',
  'checklist access facts',
  'members assigned to task',
  'checklist evaluation',
  'hidden by conditions',
  'task row',
  'checklist task states',
  'task comments',
  'task assignments',
  'task answers',
  'member row',
  'active webhooks',
  'template key of checklist',
  'task event facts',
  'tasks grid totals and pages',
  'read answers',
];

type Row = { name: string; perRun?: number; run: (f: (path: string, init?: RequestInit) => Promise<Response>) => Promise<void> };

const task = `/v3/checklists/${JANE_DOE}/tasks/${TASK}`;
const complete = `/v3/checklists/${JANE_DOE}/tasks/${WRITE_TASK}/complete`;
const ROWS: Row[] = [
  { name: 'GET /v3/auth/test', run: async (f) => void (await f('/v3/auth/test')).arrayBuffer() },
  { name: 'GET task detail', run: async (f) => void (await f(task)).arrayBuffer() },
  {
    name: 'POST+DELETE complete (per request)',
    perRun: 2,
    run: async (f) => {
      await (await f(complete, { method: 'POST' })).arrayBuffer();
      await (await f(complete, { method: 'DELETE' })).arrayBuffer();
    },
  },
  {
    // What the memos inside an answer win: every read follows a write, so no whole answer is remembered.
    name: 'complete, read, uncomplete, read (per request)',
    perRun: 4,
    run: async (f) => {
      for (const method of ['POST', 'DELETE']) {
        await (await f(complete, { method })).arrayBuffer();
        await (await f(task)).arrayBuffer();
      }
    },
  },
  { name: 'GET /v3/my-work (grid)', run: async (f) => void (await f('/v3/my-work?assignee=all&status=all')).arrayBuffer() },
];

/** CPU us per request of each row, on an emulator made with `off` memos turned off. */
async function measure(off: string): Promise<number[]> {
  process.env.WFE_MEMO_OFF = off;
  const emu = await startEmulator({ listen: false, budgets: { standard: 1e9, cheap: 1e9 } });
  try {
    const f = (path: string, init: RequestInit = {}) => emu.fetch(path, { ...init, headers: { 'X-API-KEY': KEY } });
    const out: number[] = [];
    for (const r of ROWS) {
      for (let i = 0; i < 50; i++) await r.run(f);
      const c0 = process.cpuUsage();
      for (let i = 0; i < N; i++) await r.run(f);
      const c = process.cpuUsage(c0);
      out.push((c.user + c.system) / N / (r.perRun ?? 1));
    }
    return out;
  } finally {
    await emu.close();
    delete process.env.WFE_MEMO_OFF;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const variants = names.length ? names : [...MEMOS, '*'];
  console.log(`| memo off | ${ROWS.map((r) => r.name).join(' | ')} |`);
  console.log(`|---|${ROWS.map(() => '---').join('|')}|`);
  for (const name of variants) {
    const a: number[][] = [];
    const b: number[][] = [];
    // A then B, then B then A: whichever runs second pays for the first one's heap being collected.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        a.push(await measure(''));
        b.push(await measure(name));
      } else {
        b.push(await measure(name));
        a.push(await measure(''));
      }
    }
    const cells = ROWS.map((_, j) => {
      const ma = median(a.map((x) => x[j]));
      const mb = median(b.map((x) => x[j]));
      return `${ma.toFixed(0)} → ${mb.toFixed(0)} us (${mb >= ma ? '+' : ''}${(((mb - ma) / ma) * 100).toFixed(0)}%)`;
    });
    console.log(`| ${name === '*' ? 'all' : name} | ${cells.join(' | ')} |`);
  }
}

void main();
