// One read of what a remembered value compares (store/memo.ts) that only
// SQLite knows: the connection's total_changes() and, for a file database, its data_version,
// shared by every memo of the connection (the per-table counts are kept in the process:
// store/watched-tables.ts). On an in-memory connection opened by openDb the read is reused until
// a statement that may write runs or something rolls back (store/change-signal.ts): a write
// request reads them once at most, not once per remembered value it consults (measured: 4-5
// reads per status write before).
import type Database from 'better-sqlite3';
import { signalOf, unchangedSince } from './change-signal';
import { onConnection } from './on-connection';

type Db = Database.Database;

export interface Counts {
  total: number;
  version: number;
}

interface Look {
  read: () => Counts;
  writes: number;
  rollbacks: number;
  last: Counts | undefined;
}

const looks = onConnection<Look>('changeCounts');

function lookOf(db: Db): Look {
  let l = looks.get(db);
  if (!l) {
    const st = db.prepare<[], Counts>(db.memory ? 'SELECT total_changes() AS total, 0 AS version' : 'SELECT total_changes() AS total, data_version AS version FROM pragma_data_version');
    l = { read: () => st.get()!, writes: -1, rollbacks: -1, last: undefined };
    looks.set(db, l);
  }
  return l;
}

/** What reads the connection's change counts now (one reader per connection, shared). */
export function countsReader(db: Db): () => Counts {
  const l = lookOf(db);
  const s = signalOf(db);
  const memory = db.memory;
  return () => {
    if (l.last && memory && unchangedSince(s, l.writes, l.rollbacks)) return l.last;
    l.writes = s.writes;
    l.rollbacks = s.rollbacks;
    l.last = l.read();
    // totalChanges() (store/change-signal.ts) may answer from this read until the next write.
    s.total = l.last.total;
    s.totalAt = s.writes;
    return l.last;
  };
}
