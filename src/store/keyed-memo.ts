// A value per key (a checklist's task states, a task's row) that reads only what the counts of
// store/watched-tables.ts follow for that key, remembered until a row under that key is written,
// something rolls back, or another connection commits. A family's count (store/versioned.ts)
// moves on a write to any row of its tables, so under writes spread over many checklists every
// status write read its checklist's tasks, and its task, again; counted per key, a value stands
// while others are written.
// A writer that knows exactly what its own statement changed hands over the state it left
// (`afterOwnWrite`), checked by the count: the statement wrote exactly the rows it says under
// that key, and nothing else happened in between.
import type { Db } from './open';
import { signalOf, type Signal } from './change-signal';
import { countsReader, type Counts } from './change-counts';
import { keyedTaskWrites, type KeyedWrites } from './watched-tables';

/** What the value was read at: its key's count, their generation, the rollbacks, the data version. */
interface Stamp {
  n: number;
  generation: number;
  rollbacks: number;
  version: number;
}

/** A remembered value with the state it holds for, as `current` hands it to a writer. */
export interface Held<V> extends Stamp {
  value: V;
}

const same = (a: Stamp, b: Stamp) => a.n === b.n && a.generation === b.generation && a.rollbacks === b.rollbacks && a.version === b.version;

export class KeyedMemo<V> {
  private readonly entries = new Map<number, Held<V>>();
  private readonly writes: KeyedWrites | undefined;
  private readonly signal: Signal;
  private readonly counts: () => Counts;
  private readonly memory: boolean;

  constructor(
    private readonly db: Db,
    counted: Parameters<typeof keyedTaskWrites>[1],
    private readonly limit = 1000,
  ) {
    this.writes = keyedTaskWrites(db, counted);
    this.signal = signalOf(db);
    this.counts = countsReader(db);
    this.memory = db.memory;
  }

  /** Remembered values need the counts (a connection opened by openDb) and, inside a transaction, its rollbacks seen. */
  private usable(): boolean {
    return this.writes !== undefined && (this.signal.hooked || !this.db.inTransaction);
  }

  private stamp(key: number): Stamp {
    const w = this.writes!;
    // An in-memory database has no other connection: its data version never moves.
    return { n: w.byKey.get(key) ?? 0, generation: w.generation, rollbacks: this.signal.rollbacks, version: this.memory ? 0 : this.counts().version };
  }

  private keep(key: number, held: Held<V>): void {
    if (this.entries.size >= this.limit && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, held);
  }

  get(key: number, read: () => V): V {
    if (!this.usable()) return read();
    const now = this.stamp(key);
    const e = this.entries.get(key);
    if (e && same(e, now)) return e.value;
    const value = read();
    this.keep(key, { value, ...now });
    return value;
  }

  /** Remembers a value just read by the caller under the key (nothing written in between). */
  put(key: number, value: V): void {
    if (this.usable()) this.keep(key, { value, ...this.stamp(key) });
  }

  /** The value remembered for the key, if it still holds: what a write is about to start from. */
  current(key: number): Held<V> | undefined {
    if (!this.usable()) return undefined;
    const e = this.entries.get(key);
    return e && same(e, this.stamp(key)) ? e : undefined;
  }

  /**
   * After the caller's own statement wrote `rows` rows under the key, starting from
   * `before` (from `current`, just before it): remembers `next(before.value)` as the value at the
   * state it left, unless anything else was written to them, rolled back or committed meanwhile.
   */
  afterOwnWrite(key: number, before: Held<V> | undefined, rows: number, next: (value: V) => V): void {
    if (!before || !this.usable()) return;
    const now = this.stamp(key);
    if (!same(now, { ...before, n: before.n + rows })) return;
    this.keep(key, { value: next(before.value), ...now });
  }
}

/** One KeyedMemo per connection, made on its first use, counted by `counted`. */
export function keyedMemoOf<V>(counted: Parameters<typeof keyedTaskWrites>[1]): (db: Db) => KeyedMemo<V> {
  const memos = new WeakMap<Db, KeyedMemo<V>>();
  return (db) => {
    let m = memos.get(db);
    if (!m) memos.set(db, (m = new KeyedMemo<V>(db, counted)));
    return m;
  };
}
