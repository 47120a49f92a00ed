// What each memo (src/store/memo.ts) wins: the bench's read and write rows driven in process
// (the library's fetch, one request at a time) on two emulators open at once, A with every memo
// on and B with one memo off (WFE_MEMO_OFF), in alternating batches; each side's figure is its
// median batch.
// Prints CPU microseconds per request per row and B's cost over A; the first line ("none") runs
// A against A, the run's own noise.
// Run: node --import tsx bench/memo-ab.ts [memo names...]   (none: every memo, and all at once)
// The generated Tasks grid: AB_GRID=<file> AB_BASE='read answers' (below).
// Not part of the tests; docs/performance.md "Memos: kept and removed" has a run.
import { startEmulator } from '../src/library';

const KEY = 'acme-admin-key';
const JANE_DOE = '30000000-0000-4000-8000-000000000001';
const TASK = '21000000-0000-4000-8000-000000000106';
const WRITE_TASK = '21000000-0000-4000-8000-000000000104';
const N = Number(process.env.AB_REQUESTS ?? 6000);
const BATCHES = 60;

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

const MEMOS = [
  'resolved API key',
  'checklist by key',
  'checklist run row',
  'template version document',
  'checklist access facts',
  'hidden by conditions',
  'task row',
  'checklist task states',
  'task assignments',
  'member row',
  'active webhooks',
  'template key of checklist',
  'task event facts',
  'tasks grid totals and pages',
  'read answers',
  'data set records',
];

type Row = { name: string; perRun?: number; runs?: number; run: (f: (path: string, init?: RequestInit) => Promise<Response>) => Promise<void> };

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
  {
    // What the Data Set records memo wins: a write elsewhere drops every remembered answer, not the parsed records.
    name: 'task write, then Data Set view page over 10,000 records (per request)',
    perRun: 4,
    runs: 120,
    run: async (f) => {
      for (const method of ['POST', 'DELETE']) {
        await (await f(complete, { method })).arrayBuffer();
        const res = await f(DATA_SET_PAGE);
        if (res.status !== 200) throw new Error(`the Data Set page answered ${res.status}`);
        await res.arrayBuffer();
      }
    },
  },
];

/**
 * AB_GRID=<file>: the Tasks grid rows of the bench (bench/run.ts myWorkOnGeneratedWorkspace) on a
 * file made by `wfe seed --db <file> --generate checklists=100000,tasks=20`, each run a walk of 15
 * pages through their cursors; both sides open the same file and only read it. AB_BASE=<names>:
 * memos off on both sides (`read answers`: every walk is a first walk, as after any write).
 */
const GRID = process.env.AB_GRID;
const BASE = process.env.AB_BASE ?? '';
const walk =
  (key: string, query: string): Row['run'] =>
  async (f) => {
    let after: string | undefined;
    for (let page = 0; page < 15; page++) {
      const r = await f(`/v3/my-work?pageSize=50${query ? `&${query}` : ''}${after ? `&after=${after}` : ''}`, { headers: { 'X-API-KEY': key } });
      const body = (await r.json()) as { nextCursor?: string };
      if (r.status !== 200) throw new Error(`list_my_work answered ${r.status}`);
      after = body.nextCursor;
      if (!after) break;
    }
  };
const GRID_ROWS: Row[] = [
  { name: 'grid: a member, own work (per page)', perRun: 15, runs: 60, run: walk('acme-member-key', '') },
  { name: 'grid: an Administrator, assignee=all (per page)', perRun: 15, runs: 60, run: walk(KEY, 'assignee=all') },
  { name: 'grid: one template, three statuses, by due date (per page)', perRun: 15, runs: 60, run: walk(KEY, 'assignee=all&template=5f000000-0000-4000-8000-000000000003&status=Overdue,DueToday,DueInFuture&sort=dueDateTime:desc') },
];
const ROWS_RUN = GRID ? GRID_ROWS : ROWS;

/** Stands for the emulator's own Data Set page (its keys are its own). */
const DATA_SET_PAGE = 'data set page';

/** The bench's Data Set (bench/data-sets.ts): 10,000 records, a view with two filters and two sorts. */
async function dataSetOf(f: Fetch): Promise<string> {
  const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const made = (await (await f('/v3/data-sets', json('POST', { name: 'AB', fields: [{ name: 'Name', type: 'text' }, { name: 'Number', type: 'number' }, { name: 'Flag', type: 'boolean' }] }))).json()) as { key: string; fields: { key: string }[] };
  const [NAME, NUM, FLAG] = made.fields.map((x) => x.key);
  const records = Array.from({ length: 10_000 }, (_, i) => ({ values: { [NAME]: `Record ${i} ${(i * 7919) % 10007}`, [NUM]: (i * 7919) % 10007, [FLAG]: i % 3 !== 0 } }));
  await (await f(`/v3/data-sets/${made.key}/records/bulk`, json('POST', { mode: 'replace', records }))).arrayBuffer();
  const view = (await (await f(`/v3/data-sets/${made.key}/views`, json('POST', { name: 'AB view', filters: [{ fieldKey: FLAG, operator: 'eq', value: 'true' }, { fieldKey: NAME, operator: 'contains', value: '1' }], sorts: [{ fieldKey: NUM, direction: 'desc' }, { fieldKey: NAME }] }))).json()) as { key: string };
  return `/v3/data-sets/${made.key}/records?viewKey=${view.key}&pageSize=50`;
}

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** An emulator made with the `off` memos turned off (a memo reads WFE_MEMO_OFF when it is first used: warm-up makes them all). */
async function emulatorWith(off: string) {
  process.env.WFE_MEMO_OFF = [BASE, off].filter(Boolean).join(',');
  try {
    const emu = await startEmulator({ listen: false, budgets: { standard: 1e9, cheap: 1e9 }, db: GRID });
    const keyed: Fetch = (path, init = {}) => emu.fetch(path, { ...init, headers: { 'X-API-KEY': KEY, ...(init.headers as Record<string, string>) } });
    const page = GRID ? '' : await dataSetOf(keyed);
    const f: Fetch = (path, init) => keyed(path === DATA_SET_PAGE ? page : path, init);
    for (const r of ROWS_RUN) for (let i = 0; i < (r.runs ? 4 : 50); i++) await r.run(f);
    return { emu, f };
  } finally {
    delete process.env.WFE_MEMO_OFF;
  }
}

/**
 * CPU us per request of each row, for A (every memo on) and B (`off` off), both open at once and
 * driven in alternating batches (A then B, then B then A), so the process's drift, its collector
 * and the machine's load fall on both alike.
 */
async function measure(off: string): Promise<[number[], number[]]> {
  const b = await emulatorWith(off);
  const a = await emulatorWith('');
  try {
    const cpu: [number[], number[]] = [[], []];
    for (const [j, r] of ROWS_RUN.entries()) {
      const batches: [number[], number[]] = [[], []];
      for (let k = 0; k < BATCHES; k++) {
        for (const which of k % 2 === 0 ? [0, 1] : [1, 0]) {
          const f = which === 0 ? a.f : b.f;
          const c0 = process.cpuUsage();
          const per = Math.max(1, Math.round((r.runs ?? N) / BATCHES));
          for (let i = 0; i < per; i++) await r.run(f);
          const c = process.cpuUsage(c0);
          batches[which].push((c.user + c.system) / per / (r.perRun ?? 1));
        }
      }
      // The median batch: a batch the collector ran in is an outlier on either side.
      cpu[0][j] = median(batches[0]);
      cpu[1][j] = median(batches[1]);
    }
    return cpu;
  } finally {
    await a.emu.close();
    await b.emu.close();
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  // '' first: both sides with every memo on, the run's own noise.
  const variants = names.length ? names : ['', ...MEMOS, '*'];
  console.log(`| memo off | ${ROWS_RUN.map((r) => r.name).join(' | ')} |`);
  console.log(`|---|${ROWS_RUN.map(() => '---').join('|')}|`);
  for (const name of variants) {
    const [a, b] = await measure(name);
    const cells = ROWS_RUN.map((_, j) => `${a[j].toFixed(0)} → ${b[j].toFixed(0)} µs (${b[j] >= a[j] ? '+' : ''}${(((b[j] - a[j]) / a[j]) * 100).toFixed(0)}%)`);
    console.log(`| ${name === '*' ? 'all' : name === '' ? 'none (noise)' : name} | ${cells.join(' | ')} |`);
  }
}

void main();
