// `switchyard connect TOOL`: points an agent tool (Codex, Claude Code, gemini-cli…) at the gateway.

import type { Command } from 'commander';
import type { CommandContext } from './program.js';

export function registerConnectCommand(_program: Command, _context: CommandContext): void {}
