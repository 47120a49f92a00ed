// GET /_emulator/overview (issue 40): the figures the console panel's overview shows that no
// other control route answers: each workspace's rate budgets spent in the current window (spec
// v3 8), its webhook deliveries pending and failing, and the database's size. The clock is
// GET /_emulator/clock and the instances GET /_emulator/instances.
import { z } from 'zod';
import type { Emulator } from '../emulator';
import type { Budget } from '../operations/define';
import { iso, HOUR_MS } from '../clock';
import { databaseSize, deliveryCounts, workspaceBriefs } from '../rows/overview';
import { defineControlRoute } from './define';
import { lazy } from '../lazy';

const BUCKETS: Budget[] = ['standard', 'cheap'];

const budget = lazy(() => z.object({
  limit: z.number().int().describe('Requests per hour (the server\'s --standard-budget or --cheap-budget).'),
  used: z.number().int().describe('Spent in the current window.'),
  remaining: z.number().int(),
  resetsAt: z.string().describe('When the window ends (on the hour, UTC).'),
}));
const deliveries = lazy(() => z.object({
  pending: z.number().int().describe('Waiting to be sent, first attempts and retries.'),
  retrying: z.number().int().describe('Pending after at least one failed attempt.'),
  failed: z.number().int().describe('Given up after the last retry.'),
  delivered: z.number().int(),
  dropped: z.number().int(),
}));

const output = lazy(() => z.object({
  now: z.string(),
  frozen: z.boolean(),
  workspaces: z.array(z.object({
    key: z.string(),
    name: z.string(),
    region: z.enum(['US', 'EU']),
    budgets: z.object({ standard: budget(), cheap: budget() }),
    deliveries: deliveries(),
  })),
  deliveries: deliveries().describe('Every workspace together.'),
  database: z.object({
    storage: z.enum(['file', 'memory']),
    bytes: z.number().int().describe('Pages times page size: the file\'s size (or the memory the data takes).'),
    freeBytes: z.number().int().describe('Of which free pages (reused before the file grows).'),
  }),
}));

type Counts = z.infer<ReturnType<typeof deliveries>>;
const noDeliveries = (): Counts => ({ pending: 0, retrying: 0, failed: 0, delivered: 0, dropped: 0 });

function add(c: Counts, status: string, n: number, retrying: number): void {
  if (status === 'pending') {
    c.pending += n;
    c.retrying += retrying;
  } else if (status === 'failed' || status === 'delivered' || status === 'dropped') c[status] += n;
}

export function overview(emu: Emulator): z.infer<ReturnType<typeof output>> {
  const now = emu.clock.now();
  const window = Math.floor(now / HOUR_MS) * HOUR_MS;
  const counters = emu.limiter.snapshot();
  const byWorkspace = new Map<number, Counts>();
  const all = noDeliveries();
  for (const r of deliveryCounts(emu.db)) {
    let c = byWorkspace.get(r.workspace_id);
    if (!c) byWorkspace.set(r.workspace_id, (c = noDeliveries()));
    add(c, r.status, r.n, r.retrying ?? 0);
    add(all, r.status, r.n, r.retrying ?? 0);
  }
  const size = databaseSize(emu.db);
  return {
    now: iso(now)!,
    frozen: emu.clock.frozen,
    workspaces: workspaceBriefs(emu.db).map((w) => {
      const of = (bucket: Budget) => {
        const c = counters[`${w.id}:${bucket}`];
        const used = c && c.window === window ? c.used : 0;
        const limit = emu.limiter.limits[bucket];
        return { limit, used, remaining: Math.max(0, limit - used), resetsAt: iso(window + HOUR_MS)! };
      };
      return { key: w.key, name: w.name, region: w.region, budgets: Object.fromEntries(BUCKETS.map((b) => [b, of(b)])) as Record<Budget, ReturnType<typeof of>>, deliveries: byWorkspace.get(w.id) ?? noDeliveries() };
    }),
    deliveries: all,
    database: {
      storage: emu.options.db && emu.options.db !== ':memory:' ? 'file' : 'memory',
      bytes: size.pages * size.pageSize,
      freeBytes: size.freePages * size.pageSize,
    },
  };
}

export const overviewRoute = defineControlRoute({
  method: 'GET',
  path: '/_emulator/overview',
  summary: "The emulator at a glance: each workspace's rate budgets spent and webhook deliveries pending and failing, the database's size",
  output,
  handler: (emu) => overview(emu),
});
