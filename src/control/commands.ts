// `wfe seed`, `wfe export`, `wfe import`: the control routes' database operations
// for a file database, without a running server (EMULATOR.md "Command line").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { openDb } from '../store/open';
import { exportDatabase, importDatabase, isSqliteFile, resetToFixture } from '../platform/database';
import { ApiError } from '../errors';
import { generateWorkspace, parseGenerateSpec } from '../fixtures/generate';
import { progressBar } from '../fixtures/progress';
import { hasWorkspaces } from '../rows/people';
import { explainOpenError, refuseIfHeld } from '../store/db-file';

const fail = (message: string): never => {
  throw new Error(message);
};

/** Every missing argument named at once, with an example. */
function needs(command: string, missing: (string | false)[], example: string): void {
  const m = missing.filter((x): x is string => x !== false);
  if (m.length) fail(`wfe ${command} needs ${m.join('; and ')}. For example: ${example}`);
}

function withDb<T>(file: string, fn: (db: ReturnType<typeof openDb>) => T): T {
  let db: ReturnType<typeof openDb>;
  try {
    db = openDb(file);
  } catch (e) {
    throw explainOpenError(file, e);
  }
  try {
    return fn(db);
  } catch (e) {
    if (e instanceof ApiError) fail(e.message);
    throw e;
  } finally {
    db.close();
  }
}

/**
 * `<out>` and `<in>` are required, and --help says so; commander would refuse a missing one
 * before the action runs, and the action names every missing piece at once (needs()).
 */
function missingArgumentsNamedByAction(cmd: Command): Command {
  (cmd as Command & { missingArgument(name: string): void }).missingArgument = () => {};
  return cmd;
}

export function addDatabaseCommands(program: Command): void {
  const env = process.env;
  program
    .command('seed')
    .description('Create a database file seeded with a fixture (with --force, wipe an existing one and seed it again).')
    .addOption(new Option('--db <file>', 'SQLite file to create or reseed').default(env.WFE_DB).makeOptionMandatory())
    .addOption(new Option('--fixture <name|path|none>', 'fixture to load').default(env.WFE_FIXTURE ?? 'demo'))
    .addOption(new Option('--force', 'wipe every row of an existing database first'))
    .addOption(
      new Option('--generate <spec>', 'add a large generated workspace to the demo fixture, e.g. checklists=100000,tasks=20 (also members, groups, templates, standalone)'),
    )
    .action((o: { db: string; fixture: string; force?: boolean; generate?: string }) => {
      const spec = o.generate === undefined ? undefined : parseGenerateSpec(o.generate);
      const started = Date.now();
      if (o.force) refuseIfHeld(o.db, 'seed --force');
      withDb(o.db, (db) => {
        const used = hasWorkspaces(db);
        if (used && !o.force) fail(`${o.db} already holds data. Add --force to wipe it and seed '${o.fixture}' again.`);
        resetToFixture(db, o.fixture, Date.now());
        if (spec) generateWorkspace(db, spec, Date.now(), progressBar(process.stderr, 'checklists'));
      });
      process.stderr.write(
        spec
          ? `Seeded ${o.db} with the '${o.fixture}' fixture and ${spec.checklists.toLocaleString('en')} generated checklists of ${spec.tasks} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`
          : `Seeded ${o.db} with the '${o.fixture}' fixture.\n`,
      );
    });

  missingArgumentsNamedByAction(program.command('export'))
    .description('Write a database file as one self-contained SQLite file (what GET /_emulator/export answers).')
    .addOption(new Option('--db <file>', 'SQLite file to read (env WFE_DB)').default(env.WFE_DB))
    .argument('<out>', 'file to write')
    .action((out: string | undefined, o: { db?: string }) => {
      needs('export', [o.db === undefined && '--db <file> (or WFE_DB): the database file to read', out === undefined && '<out>: the file to write'], 'wfe export --db wfe.sqlite snapshot.sqlite');
      if (!existsSync(o.db!)) fail(`No database file at ${o.db}.`);
      const bytes = withDb(o.db!, exportDatabase);
      writeFileSync(out!, bytes);
      process.stderr.write(`Exported ${o.db} to ${out} (${bytes.length} bytes).\n`);
    });

  missingArgumentsNamedByAction(program.command('import'))
    .description('Replace the data of a database file with an exported one (what POST /_emulator/import does).')
    .addOption(new Option('--db <file>', 'SQLite file to write (created if missing; env WFE_DB)').default(env.WFE_DB))
    .argument('<in>', 'exported SQLite file to read')
    .action((input: string | undefined, o: { db?: string }) => {
      needs('import', [o.db === undefined && '--db <file> (or WFE_DB): the database file to replace the data of', input === undefined && '<in>: the exported file to read'], 'wfe import --db wfe.sqlite snapshot.sqlite');
      if (!existsSync(input!)) fail(`No file at ${input}.`);
      const bytes = readFileSync(input!);
      // The route's refusal speaks of a request body; here it is a file.
      if (!isSqliteFile(bytes)) fail(`${input} is not a SQLite database file: give a file written by wfe export, wfe backup or GET /_emulator/export.`);
      refuseIfHeld(o.db!, 'import');
      const r = withDb(o.db!, (db) => importDatabase(db, bytes));
      process.stderr.write(`Imported ${input} into ${o.db}: ${r.rows} rows in ${r.tables} tables.\n`);
    });
}
