import Database from 'better-sqlite3';
import { readAsset } from '../assets';
import { loadNativeBinding } from './native';

export type Db = Database.Database;

/** Splits schema.sql into its "-- version: N" blocks. */
export function schemaBlocks(sql = readAsset('schema.sql')): { version: number; sql: string }[] {
  const parts = sql.split(/^-- version: (\d+)\s*$/m);
  const blocks: { version: number; sql: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) blocks.push({ version: Number(parts[i]), sql: parts[i + 1] });
  return blocks;
}

export const schemaVersion = (): number => Math.max(...schemaBlocks().map((b) => b.version));

/**
 * Opens (creating if needed) a database and brings its schema up to date.
 * `file` undefined or ':memory:' gives an in-memory database; a file uses WAL.
 */
export function openDb(file?: string): Db {
  const db = new Database(file ?? ':memory:', { nativeBinding: loadNativeBinding() } as Database.Options);
  if (file && file !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // FULL: an acknowledged write survives power loss and SIGKILL alike.
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const block of schemaBlocks()) {
    if (block.version <= current) continue;
    db.transaction(() => {
      db.exec(block.sql);
      db.pragma(`user_version = ${block.version}`);
    })();
  }
}
