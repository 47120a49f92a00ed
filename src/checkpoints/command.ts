// `wfe diff A.sqlite B.sqlite`: the changes of a checkpoint's diff between two exported
// database files, as JSON on stdout (docs/checkpoints.md).
import type { Command } from 'commander';
import { DiffInputError, diffFiles } from './files';

export function addDiffCommand(program: Command): void {
  program
    .command('diff')
    .description('What changed from one exported database file to a later one, grouped by resource (as GET /_emulator/checkpoints/{id}/diff answers), as JSON.')
    .argument('<before>', 'the earlier file (wfe export, wfe backup or GET /_emulator/export)')
    .argument('<after>', 'the later file')
    .action((before: string, after: string) => {
      try {
        process.stdout.write(JSON.stringify(diffFiles(before, after), null, 2) + '\n');
      } catch (e) {
        if (e instanceof DiffInputError) throw new Error(e.message);
        throw e;
      }
    });
}
