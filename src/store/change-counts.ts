// One read of everything a remembered value compares (store/versioned.ts, the key resolver):
// the connection's total_changes(), the family counts (store/watched-tables.ts) and, for a file
// database, its data_version, shared by every remembered value of the connection. On an
// in-memory connection opened by openDb the read is reused until a statement that may write
// runs or something rolls back (store/change-signal.ts): a write request then reads them once,
// not once per remembered value it consults (measured: 4-5 reads per status write).
import type Database from 'better-sqlite3';
import { signalOf, unchangedSince } from './change-signal';
import { watches, type Family } from './watched-tables';

type Db = Database.Database;

export type Counts = { total: number; version: number } & Partial<Record<Family, number>>;

interface Look {
  read: () => Counts;
  writes: number;
  rollbacks: number;
  last: Counts | undefined;
}

const looks = new WeakMap<Db, Look>();

function lookOf(db: Db): Look {
  let l = looks.get(db);
  if (!l) {
    const counts = watches(db) ? ', w.*' : '';
    const from = [db.memory ? '' : 'pragma_data_version', watches(db) ? 'temp.rows_written w' : ''].filter(Boolean).join(', ');
    const st = db.prepare<[], Counts>(`SELECT total_changes() AS total, ${db.memory ? '0' : 'data_version'} AS version${counts}${from ? ` FROM ${from}` : ''}`);
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
    return (l.last = l.read());
  };
}
