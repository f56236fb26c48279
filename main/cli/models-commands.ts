// `switchyard models …`: the models every provider lists (`models list`), and model aliases — the fixed names tools
// send (`claude-sonnet-4-5`, `gpt-5-codex`) pointed at any `<provider>/<model>`, or at a group of them with a
// strategy (`models alias NAME TARGET [TARGET…] [--strategy S] [--weights 3,1]`, `models alias list`,
// `models alias remove NAME`). Aliases live in the database: a running gateway uses a change
// from its next request.

import { InvalidArgumentError, Option, type Command } from 'commander';
import { aliasStrategies, describeAliasGroup, type AliasGroup, type AliasStrategy } from '../../shared/api/index.js';
import type { App } from '../app/index.js';
import { addListCommand, addRemoveCommand, withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

/** The warnings for targets whose provider this process does not know. */
async function unknownProviderWarnings(app: App, targets: readonly string[]): Promise<string[]> {
  const providers = await app.registry.listProviders();
  const known = providers.map((provider) => provider.id).join(', ') || 'none';
  const missing = [...new Set(targets.map((target) => target.slice(0, target.indexOf('/'))))].filter(
    (providerId) => !providers.some((provider) => provider.id === providerId),
  );
  const outcome = targets.length === 1 ? 'requests to the alias get a 404 until there is' : 'the group skips it';
  return missing.map(
    (providerId) => `warning: there is no provider "${providerId}" here (providers: ${known}); ${outcome}.`,
  );
}

function parseWeights(value: string): number[] {
  const weights = value.split(',').map((item) => item.trim());
  if (weights.some((weight) => !/^\d+(\.\d+)?$/.test(weight) || Number(weight) <= 0)) {
    throw new InvalidArgumentError('expected positive numbers separated by commas, one per target, e.g. 3,1');
  }
  return weights.map(Number);
}

/** `--weights` alone means `weighted`; without either, the group is tried in order. */
function groupOf(targets: string[], options: { strategy?: AliasStrategy; weights?: number[] }): AliasGroup {
  const strategy = options.strategy ?? (options.weights ? 'weighted' : 'ordered');
  return { targets, strategy, weights: options.weights ?? null };
}

export function registerModelsCommands(program: Command, context: CommandContext): void {
  const { output } = context;
  const models = program.command('models').description('the models providers offer, and aliases for them');

  addListCommand(models, context, {
    name: 'list',
    description: 'list every model the providers offer, as <provider>/<model>',
    list: (app) => app.registry.listModels(),
    empty: 'No models: add a provider with `switchyard providers add`, or start Ollama or LM Studio.',
    headers: ['MODEL', 'NAME', 'CONTEXT'],
    row: (model) => [model.id, model.name, model.context_length == null ? '-' : String(model.context_length)],
  });

  // `alias NAME TARGET` runs the default subcommand `set`: the options then belong to the subcommands, so that
  // `alias list --data-dir DIR` reaches `list`.
  const alias = models
    .command('alias')
    .description('names your tools send (e.g. claude-sonnet-4-5) pointed at any <provider>/<model>')
    .usage('NAME TARGET [TARGET…] [--strategy S] [--weights W,…] | list | remove NAME');
  alias
    .command('set', { isDefault: true })
    .description('create an alias or point it elsewhere (the default: `models alias NAME PROVIDER/MODEL`)')
    .argument('<name>', 'the name callers send as "model": letters, digits, ".", "_", "-", ":" or "@"')
    .argument('<targets...>', 'the <provider>/<model> it stands for, e.g. openai/gpt-4o; several make a model group')
    .addOption(
      new Option('--strategy <strategy>', 'how a group picks its target (default: ordered)').choices(aliasStrategies),
    )
    .addOption(
      new Option('--weights <weights>', 'with --strategy weighted: one weight per target, e.g. 3,1').argParser(
        parseWeights,
      ),
    )
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(
      async (
        name: string,
        targets: string[],
        options: { dataDir?: string; strategy?: AliasStrategy; weights?: number[] },
      ) =>
        withApp(context, options, async (app) => {
          const { previous, alias } = await app.aliases.set(name, groupOf(targets, options));
          const now = describeAliasGroup(alias);
          if (!previous) output.out(`Created alias ${name} → ${now}.`);
          else if (describeAliasGroup(previous) === now) output.out(`Alias ${name} already points to ${now}.`);
          else output.out(`Alias ${name} now points to ${now} (it pointed to ${describeAliasGroup(previous)}).`);
          for (const warning of await unknownProviderWarnings(app, targets)) output.err(warning);
        }),
    );

  addListCommand(alias, context, {
    name: 'list',
    description: 'list the model aliases',
    list: (app) => app.aliases.list(),
    empty: 'No model aliases yet. Add one with: switchyard models alias NAME PROVIDER/MODEL',
    headers: ['ALIAS', 'TARGET', 'CREATED'],
    row: (entry) => [entry.name, describeAliasGroup(entry), entry.created_at],
  });

  addRemoveCommand(alias, context, {
    name: 'remove',
    description: 'remove a model alias; requests naming it get a 404 from then on',
    argument: ['<name>', 'the alias, as `models alias list` shows it'],
    remove: (app, name) => app.aliases.remove(name),
    missing: (name) => `No model alias "${name}".`,
    removed: (name) => `Removed alias ${name}.`,
  });
}
