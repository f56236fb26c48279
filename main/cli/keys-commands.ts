import type { Command } from 'commander';
import { describeAccess, describeKeyState, describeLimit, describeRate } from '../../shared/api/index.js';
import { addListCommand, addRemoveCommand, withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';
import { formatJson } from './output.js';
import {
  addKeyRuleOptions,
  keyRulesChangeFrom,
  registerKeyUpdateCommand,
  type KeyRuleOptions,
} from './key-rule-options.js';

export function registerKeyCommands(program: Command, context: CommandContext): void {
  const keys = program.command('keys').description('manage the API keys callers use to reach the gateway');
  const { output } = context;

  addKeyRuleOptions(keys.command('create'))
    .description('create a key and print its secret (shown once, never again)')
    .requiredOption('--name <name>', 'a name to recognise the key by')
    .option('--json', 'print {id, name, key, created_at} as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: KeyRuleOptions & { name: string; json?: boolean; dataDir?: string }) =>
      withApp(context, options, async (app) => {
        const created = await app.keys.create(options.name, keyRulesChangeFrom(options));
        if (options.json) {
          output.out(
            formatJson({ id: created.id, name: created.name, key: created.key, created_at: created.created_at }),
          );
          return;
        }
        output.out(created.key);
        output.err(
          `Created key ${created.id} ("${created.name}"). Store the secret above now: it cannot be shown again.`,
        );
      }),
    );

  addListCommand(keys, context, {
    name: 'list',
    description: 'list keys with their rules and state (never their secrets)',
    list: (app) => app.accounts.keysWithUsage(),
    empty: 'No keys yet. Create one with: switchyard keys create --name NAME',
    headers: ['ID', 'NAME', 'LABEL', 'STATE', 'LIMIT', 'ACCESS', 'MGMT', 'RATE', 'EXPIRES', 'CREATED', 'LAST USED'],
    row: (key) => [
      key.id,
      key.name,
      key.label,
      describeKeyState(key.state),
      describeLimit(key),
      describeAccess(key),
      key.management ? 'yes' : 'no',
      describeRate(key),
      key.expires_at ?? 'never',
      key.created_at,
      key.last_used_at ?? 'never',
    ],
  });

  registerKeyUpdateCommand(keys, context);

  addRemoveCommand(keys, context, {
    name: 'delete',
    description: 'delete a key; it stops working at once',
    argument: ['<id>', 'the key id shown by `keys list`'],
    remove: (app, id) => app.keys.delete(id),
    missing: (id) => `No key with id "${id}".`,
    removed: (id) => `Deleted key ${id}.`,
  });
}
