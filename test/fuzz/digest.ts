// A digest of the data in a database: every row of every table, in rowid order.
// Used to show that a refused write changed nothing.
//
// Left out, and why:
// - `idempotency`: the platform stores the first answer of an Idempotency-Key,
//   refusals included (spec v3 4.1 rule 12: "returns the first answer"); that
//   row is bookkeeping about the request, not data the request changed.
// - `settings`: the rate-budget counters are saved there on a timer
//   (platform/budget-store.ts); spending budget is not a change of data.
// - the columns of `events` and `deliveries` that the background webhook sender
//   moves (state, attempts, timestamps, logs): they change on their own while
//   the campaign runs. Rows themselves, and their identity columns, are kept,
//   so an event or delivery written by a refused write is still caught.
import { createHash } from 'node:crypto';
import type { Db } from '../../src/store/open';

export const VOLATILE_TABLES = new Set(['idempotency', 'settings']);
const VOLATILE_COLUMNS: Record<string, Set<string>> = {
  events: new Set(['body', 'state', 'drop_reason', 'processed_at']),
  deliveries: new Set(['status', 'attempts', 'next_attempt_at', 'last_status', 'last_error', 'last_response', 'headers', 'attempt_log', 'delivered_at']),
};

interface Plan {
  table: string;
  stmt: { all(): Record<string, unknown>[] };
}

const plans = new WeakMap<Db, Plan[]>();

function planFor(db: Db): Plan[] {
  let p = plans.get(db);
  if (p) return p;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[])
    .map((r) => r.name)
    .filter((t) => !VOLATILE_TABLES.has(t));
  p = tables.map((table) => {
    const cols = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name).filter((c) => !VOLATILE_COLUMNS[table]?.has(c));
    const withoutRowid = /WITHOUT\s+ROWID/i.test((db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(table) as { sql: string }).sql);
    const order = withoutRowid ? '1' : 'rowid';
    // The emulator's statements are shared (src/store/open.ts): rows are read whole, in column order.
    return { table, stmt: db.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM "${table}" ORDER BY ${order}`) as unknown as Plan['stmt'] };
  });
  plans.set(db, p);
  return p;
}

export function digest(db: Db): string {
  const h = createHash('sha256');
  for (const { table, stmt } of planFor(db)) {
    h.update(`\u0001${table}\u0001`);
    for (const row of stmt.all()) {
      for (const v of Object.values(row)) {
        if (v === null) h.update('\u0002N');
        else if (Buffer.isBuffer(v)) h.update('\u0002B').update(v);
        else h.update('\u0002' + typeof v + String(v));
      }
      h.update('\u0003');
    }
  }
  return h.digest('hex');
}

/** Per-table digests, to name what changed when the whole digest differs. */
export function tableDigests(db: Db): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { table, stmt } of planFor(db)) {
    const h = createHash('sha256');
    for (const row of stmt.all()) h.update(JSON.stringify(Object.values(row), (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
    out[table] = h.digest('hex');
  }
  return out;
}
