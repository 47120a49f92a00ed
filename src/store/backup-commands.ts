// `wfe backup` and `wfe restore` (README "Backup and restore"). The work is loaded
// when the command runs, so `wfe --help` and start-up do not pay for it.
import { Option, type Command } from 'commander';

export function addBackupCommands(program: Command): void {
  const env = process.env;
  program
    .command('backup')
    .description('Copy a database file while wfe serve may be using it (SQLite online backup); the copy is checked before it is kept.')
    .addOption(new Option('--db <file>', 'SQLite file to back up').default(env.WFE_DB).makeOptionMandatory())
    .addOption(new Option('--force', 'replace <out> if it exists'))
    .argument('<out>', 'backup file to write')
    .action(async (out: string, o: { db: string; force?: boolean }) => {
      const { backupDatabase } = await import('./backup');
      const r = await backupDatabase(o.db, out, { force: o.force });
      process.stderr.write(`Backed up ${o.db} to ${r.file} (${r.bytes} bytes, schema version ${r.schemaVersion}, ${r.workspaces} workspaces, integrity ok).\n`);
    });
  program
    .command('restore')
    .description('Replace the data of a database file with a backup (stop wfe serve on that file first).')
    .addOption(new Option('--db <file>', 'SQLite file to restore into (created if missing)').default(env.WFE_DB).makeOptionMandatory())
    .addOption(new Option('--force', 'replace a database that already holds data'))
    .argument('<backup>', 'backup file written by wfe backup')
    .action(async (input: string, o: { db: string; force?: boolean }) => {
      const { restoreDatabase } = await import('./backup');
      const r = await restoreDatabase(input, o.db, { force: o.force });
      process.stderr.write(`Restored ${input} into ${r.file} (${r.bytes} bytes, ${r.workspaces} workspaces).\n`);
    });
}
