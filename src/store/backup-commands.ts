// `wfe backup` and `wfe restore` (README "Backup and restore"). The work is loaded
// when the command runs, so `wfe --help` and start-up do not pay for it.
import { Option, type Command } from 'commander';

type BackupWork = typeof import('./backup');
interface DatabaseFileHelp {
  description: string;
  /** What the --db file is to this command. */
  db: string;
  force: string;
  /** The file argument: its name and what it is. */
  file: [string, string];
}

/** `wfe <name> --db <file> [--force] <file>`: `run` answers the line written to stderr when it succeeds. */
function addDatabaseFileCommand(program: Command, name: string, help: DatabaseFileHelp, run: (work: BackupWork, file: string, o: { db: string; force?: boolean }) => Promise<string>): void {
  program
    .command(name)
    .description(help.description)
    .addOption(new Option('--db <file>', help.db).default(process.env.WFE_DB).makeOptionMandatory())
    .addOption(new Option('--force', help.force))
    .argument(...help.file)
    .action(async (file: string, o: { db: string; force?: boolean }) => {
      process.stderr.write(`${await run(await import('./backup'), file, o)}\n`);
    });
}

export function addBackupCommands(program: Command): void {
  const backup: DatabaseFileHelp = {
    description: 'Copy a database file while wfe serve may be using it (SQLite online backup); the copy is checked before it is kept.',
    db: 'SQLite file to back up',
    force: 'replace <out> if it exists',
    file: ['<out>', 'backup file to write'],
  };
  addDatabaseFileCommand(program, 'backup', backup, async ({ backupDatabase }, out, o) => {
    const r = await backupDatabase(o.db, out, { force: o.force });
    return `Backed up ${o.db} to ${r.file} (${r.bytes} bytes, schema version ${r.schemaVersion}, ${r.workspaces} workspaces, integrity ok).`;
  });
  const restore: DatabaseFileHelp = {
    description: 'Replace the data of a database file with a backup (refused while a wfe serve or wfe mcp has that file open).',
    db: 'SQLite file to restore into (created if missing)',
    force: 'replace a database that already holds data',
    file: ['<backup>', 'backup file written by wfe backup'],
  };
  addDatabaseFileCommand(program, 'restore', restore, async ({ restoreDatabase }, input, o) => {
    // A running wfe serve (or wfe mcp) on the file: refused, --force or not (src/store/db-file.ts).
    (await import('./db-file')).refuseIfHeld(o.db, 'restore');
    const r = await restoreDatabase(input, o.db, { force: o.force });
    return `Restored ${input} into ${r.file} (${r.bytes} bytes, ${r.workspaces} workspaces).`;
  });
}
