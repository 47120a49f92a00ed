// Extra subcommands areas add (listen, backup, export, import...).
import type { Command } from 'commander';

export const commands: ((program: Command) => void)[] = [];
