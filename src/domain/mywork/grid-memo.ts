// The page envelope's `total` of a Tasks grid query, a page's positions and the facts of a
// page's rows, remembered until the database changes (store/memo.ts, like every cached value).
// Walking the pages of one query asks for the same count again and again; over everyone's open
// work (tens of thousands of rows) it is the dearest part of a page. A count is kept per exact
// statement and arguments (the judging instant and the member's snoozes are among them). The
// statements are composed per query and read many tables, so the memo declares it may read any:
// every row written by this connection, a commit by another process sharing the file, or a
// rollback drops them all. So a total is never stale, only not recounted.
// A page's row facts (the tasks, their assignees, tags, comments, checklists) depend on the
// database alone, so a grid polled between writes reads them once.
import type { Db } from '../../store/open';
import { declareMemo, memoOn } from '../../store/memo';
import { countOf } from '../../rows/my-work-grid';

const GRID = declareMemo({ name: 'tasks grid totals and pages', reads: 'any', max: 200 });

/** `compute()` remembered under `key` until the database changes (read-only results: callers must not change them). */
export function gridMemo<T>(db: Db, key: string, compute: () => T): T {
  return memoOn<string, T>(db, GRID).get(key, compute);
}

export function gridCount(db: Db, sql: string, args: unknown[]): number {
  return gridMemo(db, `count\n${sql}\n${JSON.stringify(args)}`, () => countOf(db, sql, args));
}
