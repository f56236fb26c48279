// `switchyard models …`: model aliases (`models alias NAME PROVIDER/MODEL`, `list`, `remove`).

import type { Command } from 'commander';
import type { CommandContext } from './program.js';

export function registerModelsCommands(_program: Command, _context: CommandContext): void {}
