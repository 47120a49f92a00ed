// Values computed from the database, remembered until the database may have changed:
// any row this connection wrote (SQLite's total_changes(), rolled back or not) or, for a
// file database, a commit by another connection (PRAGMA data_version). Inside a
// transaction nothing is remembered or reused: a write that is rolled back leaves
// total_changes moved but the rows as they were, so a value computed from them mid-write
// must not outlive it.
import type { Db } from './open';

export class Versioned<K, V> {
  private readonly values = new Map<K, V>();
  private readonly changes;
  private readonly dataVersion;
  private seenT = -1;
  private seenV = -1;

  constructor(private readonly db: Db, private readonly limit = 1000) {
    this.changes = db.prepare<[], { t: number }>('SELECT total_changes() AS t');
    this.dataVersion = db.memory ? undefined : db.prepare<[], { v: number }>('SELECT data_version AS v FROM pragma_data_version');
  }

  get(key: K, compute: () => V): V {
    if (this.db.inTransaction) return compute();
    const t = this.changes.get()!.t;
    const v = this.dataVersion ? this.dataVersion.get()!.v : 0;
    if (t !== this.seenT || v !== this.seenV) {
      this.values.clear();
      this.seenT = t;
      this.seenV = v;
    }
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute();
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
