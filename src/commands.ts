// Extra subcommands areas add (listen, backup, export, import...).
import type { Command } from 'commander';
import { addForwardOption, addListenCommand } from './webhooks/listen';
import { addDatabaseCommands } from './control/commands';
import { addBackupCommands } from './store/backup-commands';
import { addDiffCommand } from './checkpoints/command';

export const commands: ((program: Command) => void)[] = [addListenCommand, addForwardOption, addDatabaseCommands, addBackupCommands, addDiffCommand];
