// The one way to remember a value worked out from the database (docs/architecture.md "State",
// "Adding a cached value"). A memo is declared once, beside its reader, with a name, the tables
// its value reads and a bound; its values live per database (a holder on the connection, so two
// emulators in one process never share one), never in a module-level map.
//
// The rule, for every memo: a value is good while none of its declared tables was written since
// it was computed (by this connection: counted by temporary triggers, store/watched-tables.ts; by
// another connection sharing the file: PRAGMA data_version) and nothing rolled back since.
//
// A memo keyed per row (`per`: a task's row by task id, a checklist's task states by checklist
// id) follows its key's own count on `tasks` instead of the table's, so writes to other rows
// leave it standing; a writer that knows what its statement changed may hand the new value over
// (`afterOwnWrite`), checked by the count.
//
// A declared table that no counter covers (reads: 'any', or a table store/watched-tables.ts does
// not count) falls back to every row this connection wrote: never stale, only recomputed more.
//
// WFE_MEMO_OFF=name,name (or *) turns memos off by name, for the bench's A/B (docs/performance.md).
//
// Verify mode (WFE_MEMO_VERIFY=1, or `verifyMemos(db)`; on in the test server): every hit is
// computed again from the database and compared; a difference throws with the memo's name. A
// reader that reads a table it did not declare, or a writer whose hand-over is wrong, fails the
// first test that reads it after such a write.
import { isDeepStrictEqual } from 'node:util';
import type { Db } from './open';
import { signalOf, type Signal } from './change-signal';
import { countsReader, type Counts } from './change-counts';
import { onConnection } from './on-connection';
import { KEYED_COLUMNS, counterOf, keyedTaskWrites, tableCounts, type KeyedWrites, type Read } from './watched-tables';

export type { Read };

export interface MemoSpec {
  /** Named in a verify failure and in docs/performance.md. */
  name: string;
  /** Every table the value reads (a table, or a table and the columns read of it); 'any': may read any table. */
  reads: readonly Read[] | 'any';
  /** Per row of `tasks` instead of per table: by task id (`task`) or by checklist id (`checklist`). */
  per?: 'task' | 'checklist';
  /** At most this many values at once (all are dropped when full). Default 1000. */
  max?: number;
  /** What verify mode compares, when the value also holds what its users fill in later (default: all of it). */
  verifyAs?: (value: unknown) => unknown;
}

/** What a value was computed at. */
interface Stamp {
  /** The declared tables' counts (or every row written). */
  t: number;
  /** The key's own count and the keyed counts' generation (per-row memos). */
  n: number;
  g: number;
  rollbacks: number;
  version: number;
}

/** A remembered value with the state it holds for, as `current` hands it to a writer. */
export interface Held<V> extends Stamp {
  value: V;
}

const same = (a: Stamp, b: Stamp) => a.t === b.t && a.n === b.n && a.g === b.g && a.rollbacks === b.rollbacks && a.version === b.version;

export class MemoMismatch extends Error {
  constructor(
    readonly memo: string,
    key: unknown,
  ) {
    super(`Memo "${memo}" answered a value the database no longer gives (key ${JSON.stringify(key)}): it reads a table it does not declare, or a writer handed over a wrong value (src/store/memo.ts).`);
  }
}

export class Memo<K, V> {
  private readonly entries = new Map<K, Held<V>>();
  private readonly signal: Signal;
  private readonly counts: () => Counts;
  private readonly memory: boolean;
  /** Indexes of the counters of the declared tables; undefined: every row written counts. */
  private readonly counters: readonly number[] | undefined;
  private readonly tables: Readonly<Int32Array> | undefined;
  private readonly keyed: KeyedWrites | undefined;
  private readonly max: number;
  /** Named in WFE_MEMO_OFF: computed every time (the bench's A/B of what each memo wins). */
  private readonly off: boolean;

  constructor(
    private readonly db: Db,
    readonly spec: MemoSpec,
    private readonly mode: { verify: boolean },
  ) {
    this.signal = signalOf(db);
    this.counts = countsReader(db);
    this.memory = db.memory;
    this.max = spec.max ?? 1000;
    const off = (process.env.WFE_MEMO_OFF ?? '').split(',');
    this.off = off.includes(spec.name) || off.includes('*');
    this.tables = tableCounts(db);
    const which = spec.per === 'task' ? 'taskRows' : 'checklistTasks';
    // A per-row memo's reads of `tasks` are followed by its key's count, when it counts every column read.
    const byKey = (r: Read) => spec.per !== undefined && typeof r !== 'string' && r.table === 'tasks' && r.columns !== undefined && r.columns.every((c) => KEYED_COLUMNS[which].includes(c));
    const found = spec.reads === 'any' || !this.tables ? undefined : spec.reads.filter((r) => !byKey(r)).map(counterOf);
    this.counters = found && found.every((i) => i !== undefined) ? (found as number[]) : undefined;
    this.keyed = spec.per ? keyedTaskWrites(db, which) : undefined;
  }

  /** Values can be trusted: inside a transaction only when its rollbacks are seen; per-row only with the counts. */
  private usable(): boolean {
    return !this.off && (this.signal.hooked || !this.db.inTransaction) && (this.spec.per === undefined || this.keyed !== undefined);
  }

  private stamp(key: K): Stamp {
    let t = 0;
    let version = 0;
    if (this.counters) {
      for (const i of this.counters) t += this.tables![i];
      // An in-memory database has no other connection: its data version never moves.
      if (!this.memory) version = this.counts().version;
    } else {
      const c = this.counts();
      t = c.total;
      version = c.version;
    }
    const w = this.keyed;
    return { t, n: w ? (w.byKey.get(key as number) ?? 0) : 0, g: w ? w.generation : 0, rollbacks: this.signal.rollbacks, version };
  }

  private keep(key: K, held: Held<V>): void {
    if (this.entries.size >= this.max && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, held);
  }

  private held(key: K): Held<V> | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (same(e, this.stamp(key))) return e;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The value for `key`: remembered if still good, else `compute()` (kept unless it wrote).
   * `fits`: whether a remembered value answers this call (one worked out from an input the
   * caller hands in, such as a template document: another input is a miss, and replaces it).
   */
  get(key: K, compute: () => V, fits?: (value: V) => boolean): V {
    if (!this.usable()) return compute();
    const e = this.held(key);
    if (e && (fits === undefined || fits(e.value))) {
      if (this.mode.verify) this.check(key, e.value, compute());
      return e.value;
    }
    const before = this.stamp(key);
    const value = compute();
    if (same(before, this.stamp(key))) this.keep(key, { value, ...before });
    return value;
  }

  /** The value remembered for `key`, if still good (the caller verifies it with `check`, or uses `get`). */
  peek(key: K): V | undefined {
    return this.usable() ? this.held(key)?.value : undefined;
  }

  /** What `put` compares to: read before computing a value `peek` did not find. */
  mark(key: K): Held<undefined> {
    return { value: undefined, ...this.stamp(key) };
  }

  /** Remembers a value computed since `mark`, unless the database moved in between (the computation wrote, or another connection did). */
  put(key: K, value: V, since: Held<undefined>): void {
    if (!this.usable()) return;
    const now = this.stamp(key);
    if (same(now, since)) this.keep(key, { value, ...now });
  }

  /** Remembers a value the caller just read for the key (nothing written in between; a later hit verifies it in verify mode). */
  remember(key: K, value: V): void {
    if (this.usable()) this.keep(key, { value, ...this.stamp(key) });
  }

  /**
   * Remembers a value worked out at the state this connection's own write just left (its
   * transaction ended). Not kept when another connection committed since `since` was read
   * before the write, or something rolled back: the state may then be theirs too.
   */
  putAfterOwnWrite(key: K, value: V, since: Held<undefined>): void {
    if (!this.signal.hooked || this.db.inTransaction) return;
    const now = this.stamp(key);
    if (now.version !== since.version || now.rollbacks !== since.rollbacks) return;
    this.keep(key, { value, ...now });
  }

  /** The value remembered for the key, if still good: what a write is about to start from. */
  current(key: K): Held<V> | undefined {
    return this.usable() ? this.held(key) : undefined;
  }

  /**
   * After the caller's own statement wrote `rows` rows under the key (a per-row memo), starting
   * from `before` (from `current`, just before it): remembers `next(before.value)` as the value at
   * the state it left, unless anything else was written, rolled back or committed meanwhile.
   */
  afterOwnWrite(key: K, before: Held<V> | undefined, rows: number, next: (value: V) => V): void {
    if (!before || !this.usable()) return;
    const now = this.stamp(key);
    if (!same(now, { ...before, n: before.n + rows })) return;
    this.keep(key, { value: next(before.value), ...now });
  }

  /** Whether a write to any table drops the values (reads: 'any', or a declared table no counter covers). */
  get followsEveryWrite(): boolean {
    return this.counters === undefined;
  }

  /** Whether hits are checked against a fresh computation (verify mode). */
  get verifying(): boolean {
    return this.mode.verify;
  }

  /** Verify mode: throws unless `fresh`, computed again now, equals the remembered `value`. */
  check<T>(key: K, value: T, fresh: T): void {
    const as = this.spec.verifyAs ?? ((v: unknown) => v);
    if (!isDeepStrictEqual(as(value), as(fresh))) throw new MemoMismatch(this.spec.name, key);
  }
}

/** Every memo of one database, made on first use: the holder lives on the connection it remembers for. */
interface Holder {
  readonly memos: Map<MemoSpec, Memo<unknown, unknown>>;
  verify: boolean;
}

const holders = onConnection<Holder>('memos');

function holderOf(db: Db): Holder {
  return holders.get(db) ?? holders.set(db, { memos: new Map(), verify: process.env.WFE_MEMO_VERIFY === '1' });
}

/** Verify mode for this database's memos (the Emulator's `memoVerify` option; tests). */
export function verifyMemos(db: Db, on = true): void {
  const h = holderOf(db);
  h.verify = on;
}

/** Every memo declared so far (constant descriptions; test/memo-declarations.test.ts checks them against the schema). */
const declared: MemoSpec[] = [];
export const declaredMemos = (): readonly MemoSpec[] => declared;

/** Declares a memo: a constant description, its values kept per database (`memoOn`). */
export function declareMemo(spec: MemoSpec): MemoSpec {
  const s = Object.freeze(spec);
  declared.push(s);
  return s;
}

/** The memo of `spec` on this database. */
export function memoOn<K, V>(db: Db, spec: MemoSpec): Memo<K, V> {
  const h = holderOf(db);
  let m = h.memos.get(spec);
  if (!m) h.memos.set(spec, (m = new Memo<unknown, unknown>(db, spec, h)));
  return m as Memo<K, V>;
}

/** A reader remembered per key: `read` answers null, not undefined, for nothing found, so that an absence is remembered too. */
export function memoized<K, V>(spec: MemoSpec, read: (db: Db, key: K) => V): (db: Db, key: K) => V {
  const s = declareMemo(spec);
  return (db, key) => memoOn<K, V>(db, s).get(key, () => read(db, key));
}
