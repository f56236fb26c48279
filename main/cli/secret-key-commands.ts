// `switchyard secret-key generate`: a key for SWITCHYARD_SECRET_KEY, which encrypts provider secrets stored in a
// shared database (decision 017). It opens no data folder and no database: the key must exist before either.

import type { Command } from 'commander';
import { generateSecretKey, secretKeyVariable } from '../secrets/index.js';
import type { CommandContext } from './program.js';

export function registerSecretKeyCommands(program: Command, context: CommandContext): void {
  const secretKey = program.command('secret-key').description(`the key that encrypts stored provider secrets`);
  secretKey
    .command('generate')
    .description(`print a new random key for ${secretKeyVariable} (32 bytes, base64); nothing is stored`)
    .action(() => {
      // Only the key on standard output, so that `export SWITCHYARD_SECRET_KEY=$(switchyard secret-key generate)`
      // and redirections into a secrets file work.
      context.output.out(generateSecretKey());
    });
}
