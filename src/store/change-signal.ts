// What tells the memos (store/memo.ts) that a connection's rows may have changed beyond
// total_changes(): its rollbacks, counted by the transaction helper (store/open.ts).
// And what lets them skip asking SQLite at all: the statements run on the connection that may
// write (store/open.ts counts them), so while none ran and nothing rolled back, no row of an
// in-memory database changed.
import type Database from 'better-sqlite3';

import { onConnection } from './on-connection';

type Db = Database.Database;

export interface Signal {
  rollbacks: number;
  /** The transaction helper of store/open.ts counts this connection's rollbacks. */
  hooked: boolean;
  /**
   * Statements run that may write (not read-only, or any db.exec), when `counted`: store/open.ts
   * counts them before they run. Moves at least whenever total_changes() or a watched table's
   * counter (store/watched-tables.ts) moves through this connection.
   */
  writes: number;
  counted: boolean;
  /** total_changes() as last read, and `writes` then. */
  total: number;
  totalAt: number;
}

const signals = onConnection<Signal>('changeSignal');

export function signalOf(db: Db): Signal {
  let s = signals.get(db);
  if (!s) signals.set(db, (s = { rollbacks: 0, hooked: false, writes: 0, counted: false, total: 0, totalAt: -1 }));
  return s;
}

/** Called by the transaction helper: rollbacks of this connection will be reported. */
export function watchRollbacks(db: Db): void {
  signalOf(db).hooked = true;
}

/** Called by store/open.ts once every statement of the connection that may write is counted. */
export function countWrites(db: Db): void {
  signalOf(db).counted = true;
}

/**
 * Whether nothing can have changed this in-memory connection's rows since `writes` and
 * `rollbacks` were read from its signal: only a connection whose writes and rollbacks are both
 * counted can tell (a file database can also change by another connection's commit).
 */
export function unchangedSince(s: Signal, writes: number, rollbacks: number): boolean {
  return s.counted && s.hooked && s.writes === writes && s.rollbacks === rollbacks;
}

/** A transaction or savepoint of this connection was rolled back (or failed to start or commit). */
export function noteRollback(db: Db): void {
  signalOf(db).rollbacks++;
}

/** How many rollbacks this connection has seen (tests and the per-transaction memo). */
export function rollbackCount(db: Db): number {
  return signalOf(db).rollbacks;
}

/**
 * Rows this connection has written since it opened (SQLite total_changes(), triggers included).
 * It moves only when a statement of this connection writes, whatever other connections do and
 * whatever rolls back, so it is read again only after one that may write ran.
 */
export function totalChanges(db: Db): number {
  const s = signalOf(db);
  if (s.counted && s.totalAt === s.writes) return s.total;
  s.totalAt = s.writes;
  return (s.total = db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n);
}
