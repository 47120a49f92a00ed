// A --db file in the words of the command line: why it cannot be opened (SQLite says only
// "unable to open database file"), and whether a running wfe holds it open.
import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadNativeBinding } from './native';

/** The reason a database file at `file` cannot be opened or written, found on disk; undefined when none is seen. */
export function dbFileProblem(file: string): string | undefined {
  const path = resolve(file);
  const dir = dirname(path);
  if (!existsSync(dir)) return `the directory ${dir} does not exist (create it first)`;
  if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  if (existsSync(path) && statSync(path).isDirectory()) return `${path} is a directory, not a file`;
  const denied = (p: string, mode: number) => {
    try {
      accessSync(p, mode);
      return undefined;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? 'denied';
    }
  };
  if (existsSync(path)) {
    const code = denied(path, constants.R_OK | constants.W_OK);
    if (code) return `${path} is not readable and writable by this user (${code})`;
  }
  // SQLite writes the file and its -wal and -shm beside it: the directory must take new files.
  const code = denied(dir, constants.W_OK | constants.X_OK);
  if (code) return `the directory ${dir} is not writable by this user (${code}; SQLite creates the file and its -wal and -shm files there)`;
  return undefined;
}

/** An error opening `file` (SQLITE_CANTOPEN and the like) restated with the path and the reason. */
export function explainOpenError(file: string, e: unknown): unknown {
  const code = (e as { code?: string }).code ?? '';
  const message = String((e as Error)?.message ?? e);
  // The disk's reason first: better-sqlite3 and SQLite each word it their own way, or not at all.
  const reason = dbFileProblem(file) ?? (/^SQLITE_(CANTOPEN|READONLY|PERM|IOERR)/.test(code) || /unable to open database file|readonly database|directory does not exist/i.test(message) ? message : undefined);
  return reason === undefined ? e : new Error(`cannot open the database file ${resolve(file)} (--db): ${reason}.`);
}

/**
 * Whether another connection holds `file` open: a running `wfe serve` or `wfe mcp` keeps its
 * database open in WAL mode, which holds a SHARED lock on the file for as long as it is open
 * (SQLite's own test for the last connection). An exclusive lock taken without waiting is then
 * refused with SQLITE_BUSY; the operating system drops the lock when that process dies, so a
 * crashed server leaves nothing stale behind (docs/running.md "Who holds a database file").
 */
export function heldOpen(file: string): boolean {
  if (!existsSync(file)) return false;
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0, nativeBinding: loadNativeBinding() } as Database.Options);
  } catch {
    return false;
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (e) {
    return (e as { code?: string }).code === 'SQLITE_BUSY' || (e as { code?: string }).code === 'SQLITE_LOCKED';
  } finally {
    db.close();
  }
}

/** Refuses to replace the data of a file another process holds open (restore, import, seed --force). */
export function refuseIfHeld(file: string, command: string): void {
  if (heldOpen(file)) {
    throw new Error(
      `${resolve(file)} is open in another process (a running wfe serve or wfe mcp on it): wfe ${command} would replace its data under it. Stop that process first, or send the file to it with POST /_emulator/import.`,
    );
  }
}
