// Online backup and restore of a file database (`wfe backup`, `wfe restore`;
// README "Backup and restore"). Both go through SQLite's backup API
// (better-sqlite3 `db.backup()`), which copies a consistent snapshot page by page
// while other connections keep reading and writing: a running `wfe serve` need
// not stop for a backup. The copy is written beside its destination and renamed
// into place only once it passed PRAGMA integrity_check, so a backup file is
// either whole or absent.
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { loadNativeBinding } from './native';
import { openDb, schemaVersion } from './open';

const open = (file: string, readonly: boolean) =>
  new Database(file, { readonly, fileMustExist: true, nativeBinding: loadNativeBinding() } as Database.Options);

export interface BackupResult {
  file: string;
  bytes: number;
  schemaVersion: number;
  workspaces: number;
}

/** Checks a database file: SQLite, intact, a schema this wfe knows. Returns its facts or throws a readable Error. */
export function checkDatabaseFile(file: string): { schemaVersion: number; workspaces: number } {
  if (!existsSync(file)) throw new Error(`No database file at ${file}.`);
  let db: Database.Database;
  try {
    db = open(file, true);
  } catch (e) {
    throw new Error(`${file} cannot be opened as a SQLite database: ${(e as Error).message}`);
  }
  try {
    let integrity: unknown;
    try {
      integrity = db.pragma('integrity_check', { simple: true });
    } catch (e) {
      throw new Error(`${file} is not a SQLite database: ${(e as Error).message}`);
    }
    if (integrity !== 'ok') throw new Error(`${file} failed PRAGMA integrity_check: ${String(integrity)}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > schemaVersion()) throw new Error(`${file} has schema version ${version}, newer than this wfe (${schemaVersion()}). Use a newer wfe.`);
    const hasWs = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'workspaces'").get();
    if (!hasWs) throw new Error(`${file} is a SQLite database but not a wfe database (no workspaces table).`);
    const workspaces = (db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n;
    return { schemaVersion: version, workspaces };
  } finally {
    db.close();
  }
}

/** Copies `source` (which may be in use by a running server) to `dest`. */
export async function backupDatabase(source: string, dest: string, opts: { force?: boolean } = {}): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`No database file at ${source}.`);
  if (existsSync(dest) && !opts.force) throw new Error(`${dest} already exists. Add --force to replace it.`);
  const partial = `${dest}.partial-${process.pid}`;
  const db = open(source, false);
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(partial);
  } finally {
    db.close();
  }
  try {
    // The copy of a WAL database is itself in WAL mode; a backup is one self-contained file.
    const copy = open(partial, false);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    const facts = checkDatabaseFile(partial);
    renameSync(partial, dest);
    return { file: dest, bytes: statSync(dest).size, ...facts };
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}

/**
 * Replaces the data of `target` with the backup `source` through the backup API
 * (so a stale -wal beside the target cannot resurrect old pages), then brings an
 * older schema up to date. Stop the server that uses `target` first.
 */
export async function restoreDatabase(source: string, target: string, opts: { force?: boolean } = {}): Promise<BackupResult> {
  const facts = checkDatabaseFile(source);
  if (existsSync(target) && !opts.force) {
    const t = (() => {
      try {
        return checkDatabaseFile(target);
      } catch {
        return undefined;
      }
    })();
    if (!t || t.workspaces > 0) throw new Error(`${target} already holds data. Add --force to replace it with ${source}.`);
  }
  const db = open(source, true);
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  const restored = openDb(target); // WAL, pragmas, migrations of an older backup
  restored.close();
  return { file: target, bytes: statSync(target).size, ...facts, schemaVersion: schemaVersion() };
}
