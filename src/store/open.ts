import Database from 'better-sqlite3';
import { readAsset } from '../assets';
import { loadNativeBinding } from './native';
import { countWrites, noteRollback, signalOf, watchRollbacks } from './change-signal';
import { installWatches } from './watched-tables';

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
 * `image` (bytes of db.serialize()) gives an in-memory database starting as that copy.
 */
/**
 * How long a write waits for another process's write lock before it gives up
 * (docs/reliability.md "Several processes on one file"): then the request is
 * answered 503 with Retry-After. WFE_BUSY_TIMEOUT_MS changes it (tests).
 */
export const busyTimeoutMs = (): number => Number(process.env.WFE_BUSY_TIMEOUT_MS) || 5000;

export function openDb(file?: string, image?: Buffer, busyMs = busyTimeoutMs()): Db {
  // An image (a serialized database) opens in memory as a copy: the bytes stay untouched.
  const db = new Database(image ?? file ?? ':memory:', { nativeBinding: loadNativeBinding() } as Database.Options);
  immediateTransactions(db);
  if (!image && file && file !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // FULL: an acknowledged write survives power loss and SIGKILL alike.
    db.pragma('synchronous = FULL');
  }
  memoizePrepare(db);
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyMs))}`);
  migrate(db);
  installWatches(db);
  return db;
}

/**
 * Applies every block above the database's user_version, each in its own
 * transaction, in version order. Never drops anything: an older file database
 * keeps its rows and gains what later blocks add. `blocks` is for tests.
 */
export function migrate(db: Db, blocks = schemaBlocks()): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = Math.max(0, ...blocks.map((b) => b.version));
  if (current > newest) {
    throw new Error(`This database has schema version ${current}, newer than this wfe knows (${newest}). Use the wfe release that wrote it, or a newer one.`);
  }
  for (const block of [...blocks].sort((a, b) => a.version - b.version)) {
    if (block.version <= current) continue;
    db.transaction(() => {
      // Another process sharing the file may have applied it while this one waited for the lock.
      if ((db.pragma('user_version', { simple: true }) as number) >= block.version) return;
      db.exec(block.sql);
      db.pragma(`user_version = ${block.version}`);
    })();
  }
}

/**
 * Every transaction takes the write lock up front (BEGIN IMMEDIATE). A deferred
 * transaction starts as a read and, when another process (`wfe mcp --db F` beside
 * `wfe serve --db F`) wrote meanwhile, fails its first write with SQLITE_BUSY at
 * once instead of waiting out the busy timeout. Nested calls stay savepoints.
 * A transaction or savepoint that throws has been rolled back: the remembered values
 * (store/memo.ts) are told, so none computed inside it outlives it.
 * The wrapper does what better-sqlite3's db.transaction() does (lib/methods/transaction.js:
 * the same statements, savepoint name and rules), made once per connection: every write
 * request makes a transaction function, and better-sqlite3's builds four variants with
 * Object.defineProperties each time (measured: ~10 us of CPU per write request).
 */
function immediateTransactions(db: Db): void {
  const st = (sql: string) => db.prepare(sql);
  const commit = st('COMMIT');
  const rollback = st('ROLLBACK');
  const savepoint = st('SAVEPOINT `\t_bs3.\t`');
  const release = st('RELEASE `\t_bs3.\t`');
  const rollbackTo = st('ROLLBACK TO `\t_bs3.\t`');
  type Run = (...a: unknown[]) => unknown;
  // As better-sqlite3's sqliteTransaction, told of every way out by an exception (a begin or
  // commit that failed too: then nothing, or everything, was rolled back).
  const attempt = (begin: Database.Statement, fn: Run, self: unknown, args: unknown[]): unknown => {
    const nested = db.inTransaction;
    (nested ? savepoint : begin).run();
    try {
      const result = fn.apply(self, args);
      if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('Transaction function cannot return a promise');
      (nested ? release : commit).run();
      return result;
    } catch (e) {
      if (db.inTransaction) {
        if (nested) {
          rollbackTo.run();
          release.run();
        } else rollback.run();
      }
      throw e;
    }
  };
  const run = (begin: Database.Statement, fn: Run, self: unknown, args: unknown[]): unknown => {
    try {
      return attempt(begin, fn, self, args);
    } catch (e) {
      noteRollback(db);
      throw e;
    }
  };
  const immediateBegin = st('BEGIN IMMEDIATE');
  const deferredBegin = st('BEGIN DEFERRED');
  const exclusiveBegin = st('BEGIN EXCLUSIVE');
  (db as unknown as { transaction: (fn: Run) => unknown }).transaction = (fn) => {
    if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
    const immediate = function (this: unknown, ...args: unknown[]) {
      return run(immediateBegin, fn, this, args);
    };
    const deferred = function (this: unknown, ...args: unknown[]) {
      return run(deferredBegin, fn, this, args);
    };
    const exclusive = function (this: unknown, ...args: unknown[]) {
      return run(exclusiveBegin, fn, this, args);
    };
    return Object.assign(immediate, { immediate, deferred, exclusive, database: db });
  };
  watchRollbacks(db);
}

/**
 * Statements are prepared once per SQL text and reused: measured, re-preparing on
 * every request was ~19% of CPU on read routes. Safe because no code can keep a
 * statement busy (.iterate()) or change its mode (.pluck/.raw/.expand): a reader
 * refuses them (rowsAsObjects). Bounded so dynamically built SQL cannot grow it
 * without limit.
 */
function memoizePrepare(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  const signal = signalOf(db);
  (db as unknown as { prepare: (sql: string) => Database.Statement }).prepare = (sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      if (cache.size >= 5000) cache.clear();
      st = prepare(sql);
      if (st.reader) rowsAsObjects(st);
      if (!st.readonly) countRuns(st, signal);
      if (ROLLBACK.test(sql)) tellRollbacks(db, st);
      cache.set(sql, st);
    }
    return st;
  };
  const exec = db.exec.bind(db);
  (db as unknown as { exec: (sql: string) => Db }).exec = (sql: string) => {
    signal.writes++;
    try {
      return exec(sql);
    } finally {
      if (ROLLBACK.test(sql)) noteRollback(db);
    }
  };
  countWrites(db);
}

/** SQL that may roll back (a transaction or a savepoint) outside the transaction helper. */
const ROLLBACK = /\bROLLBACK\b/i;

/**
 * A statement that may write counts each run before it starts (store/change-signal.ts): the
 * remembered values read SQLite's change counters only after one ran.
 */
function countRuns(st: Database.Statement, signal: { writes: number }): void {
  const s = st as unknown as Record<'run' | 'get' | 'all', (...a: unknown[]) => unknown>;
  for (const name of ['run', 'get', 'all'] as const) {
    const f = s[name].bind(st);
    s[name] = (...a) => {
      signal.writes++;
      return f(...a);
    };
  }
}

/** A ROLLBACK run by hand (not through db.transaction) is told like the helper's. */
function tellRollbacks(db: Db, st: Database.Statement): void {
  const s = st as unknown as { run: (...a: unknown[]) => unknown };
  const run = s.run.bind(st);
  s.run = (...a) => {
    try {
      return run(...a);
    } finally {
      noteRollback(db);
    }
  };
}

type Mapper = (values: unknown[]) => Record<string, unknown>;

/**
 * A reader's rows are read as arrays and made objects by a function compiled for its
 * columns. Measured: better-sqlite3 makes a row object one property at a time, and a
 * 22-column task row cost 7.7 us that way against 3.0 us read raw; the compiled object
 * literal also gives every row of a statement one shape. The objects are the same:
 * the same keys in the same order (a repeated column name keeps its first place and
 * its last value, as better-sqlite3's do).
 */
function rowsAsObjects(st: Database.Statement): void {
  let names: string[] = [];
  let make: Mapper = () => ({});
  const mapperFor = (row: unknown[]): Mapper => {
    // A schema change re-prepares the statement inside SQLite, and `SELECT *` may then have other columns.
    if (row.length !== names.length) {
      names = st.columns().map((c) => c.name);
      make = compileMapper(names);
    }
    return make;
  };
  st.raw(true);
  const get = st.get.bind(st) as (...a: unknown[]) => unknown[] | undefined;
  const all = st.all.bind(st) as (...a: unknown[]) => unknown[][];
  const s = st as unknown as { get: (...a: unknown[]) => unknown; all: (...a: unknown[]) => unknown[] };
  s.get = (...a) => {
    const row = get(...a);
    return row === undefined ? undefined : mapperFor(row)(row);
  };
  s.all = (...a) => {
    const rows = all(...a) as unknown[];
    if (rows.length === 0) return rows;
    const m = mapperFor(rows[0] as unknown[]);
    for (let i = 0; i < rows.length; i++) rows[i] = m(rows[i] as unknown[]);
    return rows;
  };
  // The statement is shared by every caller of its SQL text: a mode change or a busy iterator
  // would change or break what the others read, so neither is offered.
  const refuse = (what: string) => () => {
    throw new Error(`${what} is not available on a shared statement (src/store/open.ts): read with get() or all().`);
  };
  const modes = st as unknown as Record<'iterate' | 'pluck' | 'raw' | 'expand', unknown>;
  modes.iterate = refuse('iterate()');
  modes.pluck = refuse('pluck()');
  modes.raw = refuse('raw()');
  modes.expand = refuse('expand()');
}

function compileMapper(names: string[]): Mapper {
  const fields = names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as Mapper;
}
