// The page envelope's `total` of a Tasks grid query, remembered until the database changes.
// Walking the pages of one query asks for the same count again and again; over everyone's open
// work (tens of thousands of rows) it is the dearest part of a page. A count is kept per exact
// statement and arguments (the judging instant and the member's snoozes are among them), and
// all are dropped when anything is written: by this connection (total_changes) or by another
// process sharing the file (data_version). So a total is never stale, only not recounted.
import type { Db } from '../../store/open';
import { changeStamp, countOf } from '../../rows/my-work-grid';

const MAX_ENTRIES = 200;

interface Remembered {
  stamp: string;
  counts: Map<string, number>;
}

/** Per database, on the database object itself: the emulator's state hangs off what it owns. */
const HOLDER = Symbol('wfe.gridTotals');

export function rememberedCount(db: Db, sql: string, args: unknown[]): number {
  const holder = db as unknown as { [HOLDER]?: Remembered };
  const stamp = changeStamp(db);
  let r = holder[HOLDER];
  if (!r || r.stamp !== stamp || r.counts.size >= MAX_ENTRIES) r = holder[HOLDER] = { stamp, counts: new Map() };
  const key = `${sql}\n${JSON.stringify(args)}`;
  let n = r.counts.get(key);
  if (n === undefined) {
    n = countOf(db, sql, args);
    r.counts.set(key, n);
  }
  return n;
}
