// `wfe seed`, `wfe export`, `wfe import`: the control routes' database operations
// for a file database, without a running server (EMULATOR.md "Command line").
// The database code is loaded when a command runs, not when `wfe` starts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { Db } from '../store/open';
import { ApiError } from '../errors';

const fail = (message: string): never => {
  throw new Error(message);
};

const database = () => import('../platform/database');

async function withDb<T>(file: string, fn: (db: Db) => T): Promise<T> {
  const { openDb } = await import('../store/open');
  const db = openDb(file);
  try {
    return fn(db);
  } catch (e) {
    if (e instanceof ApiError) fail(e.message);
    throw e;
  } finally {
    db.close();
  }
}

export function addDatabaseCommands(program: Command): void {
  const env = process.env;
  program
    .command('seed')
    .description('Create a database file seeded with a fixture (with --force, wipe an existing one and seed it again).')
    .addOption(new Option('--db <file>', 'SQLite file to create or reseed').default(env.WFE_DB).makeOptionMandatory())
    .addOption(new Option('--fixture <name|path|none>', 'fixture to load').default(env.WFE_FIXTURE ?? 'demo'))
    .addOption(new Option('--force', 'wipe every row of an existing database first'))
    .action(async (o: { db: string; fixture: string; force?: boolean }) => {
      const { resetToFixture } = await database();
      await withDb(o.db, (db) => {
        const used = (db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n > 0;
        if (used && !o.force) fail(`${o.db} already holds data. Add --force to wipe it and seed '${o.fixture}' again.`);
        resetToFixture(db, o.fixture, Date.now());
      });
      process.stderr.write(`Seeded ${o.db} with the '${o.fixture}' fixture.\n`);
    });

  program
    .command('export')
    .description('Write a database file as one self-contained SQLite file (what GET /_emulator/export answers).')
    .addOption(new Option('--db <file>', 'SQLite file to read').default(env.WFE_DB).makeOptionMandatory())
    .argument('<out>', 'file to write')
    .action(async (out: string, o: { db: string }) => {
      if (!existsSync(o.db)) fail(`No database file at ${o.db}.`);
      const { exportDatabase } = await database();
      const bytes = await withDb(o.db, exportDatabase);
      writeFileSync(out, bytes);
      process.stderr.write(`Exported ${o.db} to ${out} (${bytes.length} bytes).\n`);
    });

  program
    .command('import')
    .description('Replace the data of a database file with an exported one (what POST /_emulator/import does).')
    .addOption(new Option('--db <file>', 'SQLite file to write (created if missing)').default(env.WFE_DB).makeOptionMandatory())
    .argument('<in>', 'exported SQLite file to read')
    .action(async (input: string, o: { db: string }) => {
      if (!existsSync(input)) fail(`No file at ${input}.`);
      const { importDatabase } = await database();
      const r = await withDb(o.db, (db) => importDatabase(db, readFileSync(input)));
      process.stderr.write(`Imported ${input} into ${o.db}: ${r.rows} rows in ${r.tables} tables.\n`);
    });
}
