// The page envelope's `total` of a Tasks grid query, and the facts of a page's rows,
// remembered until the database changes.
// Walking the pages of one query asks for the same count again and again; over everyone's open
// work (tens of thousands of rows) it is the dearest part of a page. A count is kept per exact
// statement and arguments (the judging instant and the member's snoozes are among them), and
// all are dropped when anything is written: by this connection (total_changes) or by another
// process sharing the file (data_version). So a total is never stale, only not recounted.
// A page's row facts (the tasks, their assignees, tags, comments, checklists) depend on the
// database alone, so a grid polled between writes reads them once.
import type { Db } from '../../store/open';
import { changeStamp, countOf } from '../../rows/my-work-grid';

const MAX_ENTRIES = 200;

interface Remembered {
  stamp: string;
  values: Map<string, unknown>;
}

/** Per database, on the database object itself: the emulator's state hangs off what it owns. */
const HOLDER = Symbol('wfe.gridTotals');

/** The stamp read once for a whole read (onOneStamp): a grid page asks several times. */
let pinned: { db: Db; stamp: string } | undefined;

/** Runs `read` (synchronous, writing nothing) with the database's stamp read once for all it remembers. */
export function onOneStamp<T>(db: Db, read: () => T): T {
  if (pinned) return read();
  pinned = { db, stamp: changeStamp(db) };
  try {
    return read();
  } finally {
    pinned = undefined;
  }
}

/** `compute()` remembered under `key` until the database changes (read-only results: callers must not change them). */
export function remembered<T>(db: Db, key: string, compute: () => T): T {
  const holder = db as unknown as { [HOLDER]?: Remembered };
  const stamp = pinned?.db === db ? pinned.stamp : changeStamp(db);
  let r = holder[HOLDER];
  if (!r || r.stamp !== stamp || r.values.size >= MAX_ENTRIES) r = holder[HOLDER] = { stamp, values: new Map() };
  if (r.values.has(key)) return r.values.get(key) as T;
  const v = compute();
  r.values.set(key, v);
  return v;
}

export function rememberedCount(db: Db, sql: string, args: unknown[]): number {
  return remembered(db, `count\n${sql}\n${JSON.stringify(args)}`, () => countOf(db, sql, args));
}
