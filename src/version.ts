// `wfe version [--verbose]`: which wfe, and on which runtime (the single executable
// carries its own Node; docs and tests check it is a supported line).
import type { Command } from 'commander';

export const WFE_VERSION = '0.1.0';

export function runtimeInfo() {
  let sea = false;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:sea exists only on Node 20.12+; a require in try is the optional load
    sea = (require('node:sea') as { isSea(): boolean }).isSea();
  } catch {
    sea = false;
  }
  return { wfe: WFE_VERSION, node: process.version, platform: `${process.platform}-${process.arch}`, modules: process.versions.modules, singleExecutable: sea };
}

export function addVersionCommand(program: Command): void {
  program
    .command('version')
    .description('Print the wfe version; with --verbose, the Node runtime it runs on too.')
    .option('--verbose', 'also the Node version, platform and whether this is the single executable')
    .option('--json', 'as JSON')
    .action((o: { verbose?: boolean; json?: boolean }) => {
      const info = runtimeInfo();
      if (o.json) process.stdout.write(JSON.stringify(info) + '\n');
      else if (o.verbose) process.stdout.write(`wfe ${info.wfe}\nnode ${info.node} (${info.platform}, ABI ${info.modules})${info.singleExecutable ? ', single executable' : ''}\n`);
      else process.stdout.write(`${info.wfe}\n`);
    });
}
