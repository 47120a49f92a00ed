// A value per checklist that reads only what its tasks are (their order, kinds and statuses:
// rows/tasks.ts taskStatesOfChecklist), remembered until a row of that checklist's tasks is
// written (store/watched-tables.ts counts them per checklist), something rolls back, or another
// connection commits. A family's count (store/versioned.ts) moves on a write to any checklist,
// so under writes spread over many checklists every status write read its checklist's tasks
// twice; counted per checklist, the value stands while other checklists are written.
// A writer that knows exactly what its own statement changed hands over the state it left
// (`afterOwnWrite`), checked by the count: the statement wrote exactly the rows it says, and
// nothing else happened in between.
import type { Db } from './open';
import { signalOf, type Signal } from './change-signal';
import { countsReader, type Counts } from './change-counts';
import { checklistTaskWrites, type ChecklistTaskWrites } from './watched-tables';

/** What the value was read at: the checklist's count, its generation, the rollbacks, the data version. */
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

export class PerChecklist<V> {
  private readonly entries = new Map<number, Held<V>>();
  private readonly writes: ChecklistTaskWrites | undefined;
  private readonly signal: Signal;
  private readonly counts: () => Counts;
  private readonly memory: boolean;

  constructor(
    private readonly db: Db,
    private readonly limit = 1000,
  ) {
    this.writes = checklistTaskWrites(db);
    this.signal = signalOf(db);
    this.counts = countsReader(db);
    this.memory = db.memory;
  }

  /** Remembered values need the counts (a connection opened by openDb) and, inside a transaction, its rollbacks seen. */
  private usable(): boolean {
    return this.writes !== undefined && (this.signal.hooked || !this.db.inTransaction);
  }

  private stamp(checklistId: number): Stamp {
    const w = this.writes!;
    // An in-memory database has no other connection: its data version never moves.
    return { n: w.byChecklist.get(checklistId) ?? 0, generation: w.generation, rollbacks: this.signal.rollbacks, version: this.memory ? 0 : this.counts().version };
  }

  private keep(checklistId: number, held: Held<V>): void {
    if (this.entries.size >= this.limit && !this.entries.has(checklistId)) this.entries.clear();
    this.entries.set(checklistId, held);
  }

  get(checklistId: number, read: () => V): V {
    if (!this.usable()) return read();
    const now = this.stamp(checklistId);
    const e = this.entries.get(checklistId);
    if (e && same(e, now)) return e.value;
    const value = read();
    this.keep(checklistId, { value, ...now });
    return value;
  }

  /** The value remembered for the checklist, if it still holds: what a write is about to start from. */
  current(checklistId: number): Held<V> | undefined {
    if (!this.usable()) return undefined;
    const e = this.entries.get(checklistId);
    return e && same(e, this.stamp(checklistId)) ? e : undefined;
  }

  /**
   * After the caller's own statement wrote `rows` rows of the checklist's tasks, starting from
   * `before` (from `current`, just before it): remembers `next(before.value)` as the value at the
   * state it left, unless anything else was written to them, rolled back or committed meanwhile.
   */
  afterOwnWrite(checklistId: number, before: Held<V> | undefined, rows: number, next: (value: V) => V): void {
    if (!before || !this.usable()) return;
    const now = this.stamp(checklistId);
    if (now.n !== before.n + rows || now.generation !== before.generation || now.rollbacks !== before.rollbacks || now.version !== before.version) return;
    this.keep(checklistId, { value: next(before.value), ...now });
  }
}
