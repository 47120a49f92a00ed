// Whole-database operations behind /_emulator/reset, /export, /import and the
// `wfe seed|export|import` commands. Rows are replaced inside the same database
// (never a new connection), so every prepared statement the emulator holds stays valid.
import Database from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isBusy, storageCode, validationError } from '../errors';
import { migrate, schemaVersion, type Db } from '../store/open';
import { loadNativeBinding } from '../store/native';
import { loadFixture, type FixtureSource } from '../fixtures/load';
import { applyPlan, fixtureImage, isBuiltIn, type ImagePlan } from '../fixtures/image';
import { processTempFiles, type TempFiles } from './temp-files';
import { replacingData } from '../rows/checkpoints';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** Ordinary tables of the schema (not SQLite's own, not virtual tables or their shadows). */
export function dataTables(db: Db, schema = 'main'): string[] {
  const rows = db.prepare(`SELECT name, sql FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string; sql: string | null }[];
  const virtual = rows.filter((r) => /^\s*CREATE\s+VIRTUAL/i.test(r.sql ?? '')).map((r) => r.name);
  return rows.map((r) => r.name).filter((n) => !virtual.includes(n) && !virtual.some((v) => n.startsWith(v + '_')));
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function deleteAll(db: Db, tables: string[]): void {
  // Inside the transaction: foreign keys are checked once, at commit.
  db.pragma('defer_foreign_keys = ON');
  for (const t of tables) db.prepare(`DELETE FROM main.${quote(t)}`).run();
  const hasSeq = db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get();
  if (hasSeq) db.prepare('DELETE FROM main.sqlite_sequence').run();
}

/** Wipes every row and loads the fixture again, in one transaction (POST /_emulator/reset, `wfe seed`). */
export function resetToFixture(db: Db, fixture: FixtureSource, now: number): void {
  const tables = dataTables(db);
  db.transaction(() =>
    replacingData(db, 'reset', () => {
      deleteAll(db, tables);
      if (fixture !== 'none') loadFixture(db, fixture, now);
    }),
  )();
}

/**
 * The rows a fixture load wrote, kept in an attached in-memory database, so a reset copies
 * them back instead of loading the fixture again (measured: a load runs the template
 * validator, starts checklists and evaluates their rules, ~10 ms on the demo fixture; the
 * copy is a few INSERT ... SELECT). A load writes the clock's instant into rows, so the copy
 * is then moved to the reset's instant by the fixture image's plan (src/fixtures/image.ts):
 * its times shifted, its random cells drawn again, as a load at that instant writes them.
 * Restoring replaces rows in the same connection, like a load, so prepared statements stay
 * valid and every memo drops what it remembered (store/memo.ts; test/memo-rules.test.ts, reset).
 */
export class FixtureImage {
  private at: number | undefined;
  private fixture: string | undefined;
  private columns = new Map<string, string>();
  /** The image's tables that hold rows: only they are copied back. */
  private filled: string[] = [];
  /** One statement naming the tables of main that hold rows: only they are emptied (a statement per table was most of a reset). */
  private holding = '';
  /** The tables in an order where a row's references are written before it (none when they go round). */
  private parentsFirst: string[] | undefined;
  private sequence = false;

  reset(db: Db, fixture: FixtureSource, now: number): void {
    const plan = isBuiltIn(fixture) && fixture !== 'none' ? fixtureImage(fixture)?.plan : undefined;
    if (!plan) {
      this.at = undefined;
      resetToFixture(db, fixture, now);
      return;
    }
    if (this.at !== undefined && this.fixture === fixture && attached(db)) {
      this.restore(db, plan, now - this.at);
      return;
    }
    resetToFixture(db, fixture, now);
    this.capture(db, fixture as string, now);
  }

  private capture(db: Db, fixture: string, now: number): void {
    if (!attached(db)) {
      db.prepare(`ATTACH DATABASE ':memory:' AS ${IMAGE}`).run();
      attachedTo.add(db);
    }
    this.columns.clear();
    db.transaction(() => {
      for (const t of dataTables(db, IMAGE)) db.prepare(`DROP TABLE ${IMAGE}.${quote(t)}`).run();
      for (const t of dataTables(db)) {
        const cols = (db.prepare(`PRAGMA main.table_info(${quote(t)})`).all() as { name: string }[]).map((c) => quote(c.name)).join(', ');
        this.columns.set(t, cols);
        db.prepare(`CREATE TABLE ${IMAGE}.${quote(t)} AS SELECT ${cols} FROM main.${quote(t)}`).run();
      }
      if (hasSequence(db)) db.prepare(`CREATE TABLE ${IMAGE}."~sequence" AS SELECT name, seq FROM main.sqlite_sequence`).run();
    })();
    this.filled = [...this.columns.keys()].filter((t) => db.prepare(`SELECT 1 FROM ${IMAGE}.${quote(t)} LIMIT 1`).get() !== undefined);
    this.holding = [...this.columns.keys()].map((t) => `SELECT '${t.replace(/'/g, "''")}' AS name WHERE EXISTS (SELECT 1 FROM main.${quote(t)})`).join(' UNION ALL ');
    this.parentsFirst = parentsFirst(db, [...this.columns.keys()]);
    this.sequence = hasSequence(db);
    this.at = now;
    this.fixture = fixture;
  }

  private restore(db: Db, plan: ImagePlan, delta: number): void {
    db.transaction(() => replacingData(db, 'reset', () => {
      const holding = new Set((db.prepare(this.holding).all() as { name: string }[]).map((r) => r.name));
      if (this.parentsFirst) {
        // Children before parents, so no row is ever left pointing at a missing one and the
        // checks need not be deferred: no flag pragma, which would expire every prepared
        // statement of the connection (SQLite's OP_Expire) and make all of them compile again.
        for (let i = this.parentsFirst.length - 1; i >= 0; i--) {
          const t = this.parentsFirst[i];
          if (holding.has(t)) db.prepare(`DELETE FROM main.${quote(t)}`).run();
        }
      } else deleteAll(db, [...holding]);
      for (const t of this.parentsFirst ?? this.filled) {
        if (this.filled.includes(t)) db.prepare(`INSERT INTO main.${quote(t)} (${this.columns.get(t)}) SELECT ${this.columns.get(t)} FROM ${IMAGE}.${quote(t)}`).run();
      }
      // The inserts above wrote their own counters: replaced by the image's.
      if (this.sequence) {
        db.prepare('DELETE FROM main.sqlite_sequence').run();
        db.prepare(`INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM ${IMAGE}."~sequence"`).run();
      }
      applyPlan(db, plan, delta);
    }))();
  }
}

/** The tables with every table a row of it may reference before it, or undefined when references go round (then checks are deferred). */
function parentsFirst(db: Db, tables: string[]): string[] | undefined {
  const parents = new Map(tables.map((t) => [t, new Set((db.pragma(`main.foreign_key_list(${quote(t)})`) as { table: string }[]).map((f) => f.table).filter((p) => p !== t))]));
  const out: string[] = [];
  const placed = new Set<string>();
  while (out.length < tables.length) {
    const next = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p) || !parents.has(p)));
    if (next.length === 0) return undefined;
    for (const t of next) {
      placed.add(t);
      out.push(t);
    }
  }
  return out;
}

const IMAGE = 'wfe_fixture_image';
/** Connections the image is attached to: nothing detaches it, and asking SQLite each reset cost 70 us. */
const attachedTo = new WeakSet<Db>();
const attached = (db: Db) => attachedTo.has(db);
const hasSequence = (db: Db) => db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;

/** The whole database as one SQLite file (GET /_emulator/export, `wfe export`). */
export function exportDatabase(db: Db): Buffer {
  return db.serialize();
}

/**
 * Replaces every row with the rows of `bytes`, a SQLite file written by export
 * (POST /_emulator/import, `wfe import`). An older schema version is migrated
 * first; a newer one, or a file that is not a wfe database, is refused with 400.
 */
export const isSqliteFile = (bytes: Buffer): boolean => bytes.length >= 100 && bytes.subarray(0, 16).toString('latin1') === SQLITE_MAGIC;

export function importDatabase(db: Db, bytes: Buffer, temp: TempFiles = processTempFiles()): { tables: number; rows: number } {
  if (!isSqliteHeader(bytes) || bytes.length < 100) throw notSqlite();
  const dir = temp.make('import-');
  const file = join(dir, 'import.sqlite');
  try {
    writeFileSync(file, bytes);
    return importDatabaseFile(db, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether these first bytes can begin a SQLite file (all 16 header bytes, or as many as arrived). */
export const isSqliteHeader = (head: Buffer): boolean => head.subarray(0, 16).toString('latin1') === SQLITE_MAGIC.slice(0, Math.min(16, head.length));

export const notSqlite = () => validationError('The body is not a SQLite database file (send the bytes GET /_emulator/export answered).');

/**
 * The import itself, from a SQLite file on disk (the route streams the body to one).
 * The file is checked and migrated before the transaction opens, so only the copy of
 * the rows holds the write lock; the copy is one transaction (all or nothing).
 */
export function importDatabaseFile(db: Db, file: string): { tables: number; rows: number } {
  checkAndMigrate(file);
  const tables = dataTables(db);
  db.prepare('ATTACH DATABASE ? AS import_src').run(file);
  let rows = 0;
  try {
    const theirs = new Set(dataTables(db, 'import_src'));
    const missing = tables.filter((t) => !theirs.has(t));
    if (missing.length) throw validationError(`The database file is not a wfe database: it has no table ${missing.slice(0, 5).join(', ')}.`);
    try {
      db.transaction(() => replacingData(db, 'import', () => {
        deleteAll(db, tables);
        for (const t of tables) {
          const ours = (db.prepare(`PRAGMA main.table_info(${quote(t)})`).all() as { name: string }[]).map((c) => c.name);
          const cols = new Set((db.prepare(`PRAGMA import_src.table_info(${quote(t)})`).all() as { name: string }[]).map((c) => c.name));
          const shared = ours.filter((c) => cols.has(c)).map(quote).join(', ');
          rows += db.prepare(`INSERT INTO main.${quote(t)} (${shared}) SELECT ${shared} FROM import_src.${quote(t)}`).run().changes;
        }
        const seq = db.prepare("SELECT 1 FROM import_src.sqlite_master WHERE name = 'sqlite_sequence'").get();
        const ourSeq = db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get();
        if (seq && ourSeq) db.prepare('INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM import_src.sqlite_sequence').run();
      }))();
    } catch (e) {
      if (e instanceof Error && e.name === 'SqliteError' && !isBusy(e) && !storageCode(e)) {
        throw validationError(`The database file could not be imported: ${e.message}. Nothing was changed.`);
      }
      throw e;
    }
  } finally {
    db.prepare('DETACH DATABASE import_src').run();
  }
  return { tables: tables.length, rows };
}

function checkAndMigrate(file: string): void {
  let src: Db;
  try {
    src = new Database(file, { nativeBinding: loadNativeBinding() } as Database.Options);
  } catch (e) {
    throw validationError(`The body is not a readable SQLite database: ${e instanceof Error ? e.message : String(e)}.`);
  }
  try {
    let version: number;
    try {
      version = src.pragma('user_version', { simple: true }) as number;
    } catch (e) {
      throw validationError(`The body is not a readable SQLite database: ${e instanceof Error ? e.message : String(e)}.`);
    }
    const ours = schemaVersion();
    if (version === 0) throw validationError('The database file is not a wfe database (it has no schema version).');
    if (version > ours) throw validationError(`The database file has schema version ${version}; this wfe understands up to ${ours}. Use a newer wfe.`);
    if (version < ours) migrate(src);
  } finally {
    src.close();
  }
}
