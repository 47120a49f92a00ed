// Values computed from the database, remembered until the database may have changed. The
// signal, read on every lookup, is exact without knowing who wrote what:
// - SQLite's total_changes(): every row this connection wrote (any writer, triggers included);
//   or, for a value that reads only one family of tables (store/watched-tables.ts), the rows
//   this connection wrote to those tables;
// - PRAGMA data_version, for a file database: a commit by another connection (`wfe mcp` on
//   the same file);
// - a rollback count kept by the transaction helper (store/open.ts): a transaction or savepoint
//   rolled back leaves total_changes() moved over rows that are as they were (and rolls a
//   family's counter back to a value it had before), so a value computed in between must not
//   outlive it;
// - minus the quiet changes: rows written to tables no remembered value reads (the activity
//   feed), declared by their writer, so a write's own bookkeeping does not throw away what the
//   same write just worked out.
// SQLite is asked only when it must: on an in-memory connection opened by openDb, while no
// statement that may write has run and nothing rolled back since the last look (store/open.ts
// counts both), nothing changed (measured: ~8 reads of total_changes() per write request).
// With the rollback count a value computed inside a transaction is trusted too: it holds as long
// as nothing else is written, and is dropped the moment anything it may depend on rolls back.
// A connection without the transaction helper (not opened by openDb) recomputes inside a
// transaction, as it cannot see rollbacks.
import type { Db } from './open';
import { signalOf, unchangedSince, type Signal } from './change-signal';
import { counterSql, type Family } from './watched-tables';

export class Versioned<K, V> {
  private readonly values = new Map<K, V>();
  /** The change count and, for a file database, its data version, in one read. */
  private readonly look;
  private readonly signal: Signal;
  private readonly quiet: boolean;
  private seenT = -1;
  private seenV = -1;
  private seenR = -1;
  private seenW = -1;

  /**
   * `loud`: every row written counts, the quiet ones too, for a value that may read any table
   * (a whole answer: src/pipeline/answer-memo.ts).
   */
  constructor(db: Db, limit?: number, loud?: boolean);
  constructor(db: Db, limit: number, loud: boolean, family: Family | undefined);
  constructor(
    private readonly db: Db,
    private readonly limit = 1000,
    loud = false,
    family?: Family,
  ) {
    const counter = family ? counterSql(db, family) : undefined;
    // A family's counter, or every row written: a connection without counters falls back to the latter.
    const changes = counter ?? 'total_changes()';
    this.quiet = counter === undefined && !loud;
    this.look = db.prepare<[], { t: number; v: number }>(db.memory ? `SELECT ${changes} AS t, 0 AS v` : `SELECT ${changes} AS t, data_version AS v FROM pragma_data_version`);
    this.signal = signalOf(db);
  }

  /** A value that reads only the tables of `family` (store/watched-tables.ts lists them with their readers). */
  static watching<K, V>(db: Db, family: Family, limit = 1000): Versioned<K, V> {
    return new Versioned<K, V>(db, limit, false, family);
  }

  get(key: K, compute: () => V): V {
    if (!this.signal.hooked && this.db.inTransaction) return compute();
    this.refresh();
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute();
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }

  /** The value remembered for `key`, if the database has not changed since. */
  peek(key: K): V | undefined {
    if (!this.signal.hooked && this.db.inTransaction) return undefined;
    this.refresh();
    return this.values.get(key);
  }

  /**
   * Remembers a value computed after a `peek` that found none, unless the database changed in
   * between (the computation wrote, or another connection did): then it is not kept.
   */
  put(key: K, value: V): void {
    if (!this.signal.hooked && this.db.inTransaction) return;
    if (this.refresh()) return;
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
  }

  /** Reads the signal; forgets everything and returns true when it moved. */
  private refresh(): boolean {
    const s = this.signal;
    const w = s.writes;
    const r = s.rollbacks;
    if (this.db.memory && unchangedSince(s, this.seenW, this.seenR) && this.seenT !== -1) return false;
    const now = this.look.get()!;
    const t = now.t - (this.quiet ? s.quiet : 0);
    this.seenW = w;
    if (t === this.seenT && now.v === this.seenV && r === this.seenR) return false;
    this.values.clear();
    this.seenT = t;
    this.seenV = now.v;
    this.seenR = r;
    return true;
  }
}
