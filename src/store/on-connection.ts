// State the store keeps per database connection (change counters, memo values), held on the
// connection object itself: it lives and dies with the database it describes, and two emulators
// in one process never share it. No module-level map holds anything read from a database.
import type Database from 'better-sqlite3';

type Db = Database.Database;

export interface OnConnection<T> {
  get(db: Db): T | undefined;
  set(db: Db, value: T): T;
}

/** A named place for one kind of state on every connection. */
export function onConnection<T>(name: string): OnConnection<T> {
  const key = Symbol(`wfe.${name}`);
  return {
    get: (db) => (db as unknown as Record<symbol, T | undefined>)[key],
    set: (db, value) => ((db as unknown as Record<symbol, T>)[key] = value),
  };
}
