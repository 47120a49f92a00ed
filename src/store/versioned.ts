// Values computed from the database, remembered until the database may have changed. The
// signal, read on every lookup, is exact without knowing who wrote what:
// - SQLite's total_changes(): every row this connection wrote (any writer, triggers included);
//   or, for a value that reads only one family of tables (store/watched-tables.ts), the rows
//   this connection wrote to those tables;
// - PRAGMA data_version, for a file database: a commit by another connection (`wfe mcp` on
//   the same file);
// - a rollback count kept by the transaction helper (store/open.ts): a transaction or savepoint
//   rolled back leaves total_changes() moved over rows that are as they were (and takes a
//   family's count back to a value it had before), so a value computed in between must not
//   outlive it;
// - minus the quiet changes: rows written to tables no remembered value reads (the activity
//   feed), declared by their writer, so a write's own bookkeeping does not throw away what the
//   same write just worked out.
// A family's count is kept in the process; total_changes() and data_version are read once for
// all the connection's remembered values, and on an in-memory connection only after a statement
// that may write ran or something rolled back (store/change-counts.ts).
// With the rollback count a value computed inside a transaction is trusted too: it holds as long
// as nothing else is written, and is dropped the moment anything it may depend on rolls back.
// A connection without the transaction helper (not opened by openDb) recomputes inside a
// transaction, as it cannot see rollbacks.
import type { Db } from './open';
import { signalOf, type Signal } from './change-signal';
import { countsReader, type Counts } from './change-counts';
import { familyCounts, type Family } from './watched-tables';

export class Versioned<K, V> {
  private readonly values = new Map<K, V>();
  private readonly counts: () => Counts;
  private readonly signal: Signal;
  /** The family whose count this value follows; undefined: every row written. */
  private readonly family: Family | undefined;
  private readonly families: Readonly<Record<Family, number>> | undefined;
  private readonly memory: boolean;
  private readonly quiet: boolean;
  private seenT = -1;
  private seenV = -1;
  private seenR = -1;

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
    // A connection without family counts (not opened by openDb) follows every row written.
    this.families = familyCounts(db);
    this.family = family !== undefined && this.families ? family : undefined;
    this.memory = db.memory;
    this.quiet = this.family === undefined && !loud;
    this.counts = countsReader(db);
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

  /**
   * What a write of this connection is about to start from, for `putAfterOwnWrite`: the data
   * version another connection's commit moves (0 on an in-memory database, which has none).
   */
  mark(): number {
    return this.memory ? 0 : this.counts().version;
  }

  /**
   * Remembers a value worked out at the state this connection's own write just left (its
   * transaction ended), forgetting what was remembered before it. Not kept when another
   * connection committed since `mark` was read before the write: the state may then be theirs too.
   */
  putAfterOwnWrite(key: K, value: V, mark: number): void {
    if (!this.signal.hooked || this.db.inTransaction) return;
    this.refresh();
    if (!this.memory && this.counts().version !== mark) return;
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
  }

  /** Reads the signal; forgets everything and returns true when it moved. */
  private refresh(): boolean {
    let t: number;
    let v = 0;
    if (this.family !== undefined) {
      t = this.families![this.family];
      // An in-memory database has no other connection: its data version never moves.
      if (!this.memory) v = this.counts().version;
    } else {
      const c = this.counts();
      t = c.total - (this.quiet ? this.signal.quiet : 0);
      v = c.version;
    }
    const r = this.signal.rollbacks;
    if (t === this.seenT && v === this.seenV && r === this.seenR) return false;
    this.values.clear();
    this.seenT = t;
    this.seenV = v;
    this.seenR = r;
    return true;
  }
}

/**
 * One value per key on each connection, read by `read` and remembered until a table of `family`
 * is written (store/watched-tables.ts lists each family's readers). `read` answers null, not
 * undefined, for nothing found, so that an absence is remembered too.
 */
export function rememberedBy<K, V>(family: Family, read: (db: Db, key: K) => V, limit = 1000): (db: Db, key: K) => V {
  const memos = new WeakMap<Db, Versioned<K, V>>();
  return (db, key) => {
    let m = memos.get(db);
    if (!m) memos.set(db, (m = Versioned.watching<K, V>(db, family, limit)));
    return m.get(key, () => read(db, key));
  };
}
