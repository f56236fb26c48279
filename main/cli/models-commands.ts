// `switchyard models …`: the models every provider lists (`models list`), and model aliases — the fixed names tools
// send (`claude-sonnet-4-5`, `gpt-5-codex`) pointed at any `<provider>/<model>` (`models alias NAME PROVIDER/MODEL`,
// `models alias list`, `models alias remove NAME`). Aliases live in the database: a running gateway uses a change
// from its next request.

import type { Command } from 'commander';
import type { App } from '../app/index.js';
import { addListCommand, addRemoveCommand, withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

/** The warning for an alias whose target's provider this process does not know, or null. */
async function unknownProviderWarning(app: App, target: string): Promise<string | null> {
  const providerId = target.slice(0, target.indexOf('/'));
  const providers = await app.registry.listProviders();
  if (providers.some((provider) => provider.id === providerId)) return null;
  const known = providers.map((provider) => provider.id).join(', ') || 'none';
  return `warning: there is no provider "${providerId}" here (providers: ${known}); requests to the alias get a 404 until there is.`;
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
    .usage('NAME PROVIDER/MODEL | list | remove NAME');
  alias
    .command('set', { isDefault: true })
    .description('create an alias or point it elsewhere (the default: `models alias NAME PROVIDER/MODEL`)')
    .argument('<name>', 'the name callers send as "model": letters, digits, ".", "_", "-", ":" or "@"')
    .argument('<target>', 'the <provider>/<model> it stands for, e.g. openai/gpt-4o')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, target: string, options: { dataDir?: string }) =>
      withApp(context, options, async (app) => {
        const { previous } = await app.aliases.set(name, target);
        if (!previous) output.out(`Created alias ${name} → ${target}.`);
        else if (previous.target === target) output.out(`Alias ${name} already points to ${target}.`);
        else output.out(`Alias ${name} now points to ${target} (it pointed to ${previous.target}).`);
        const warning = await unknownProviderWarning(app, target);
        if (warning) output.err(warning);
      }),
    );

  addListCommand(alias, context, {
    name: 'list',
    description: 'list the model aliases',
    list: (app) => app.aliases.list(),
    empty: 'No model aliases yet. Add one with: switchyard models alias NAME PROVIDER/MODEL',
    headers: ['ALIAS', 'TARGET', 'CREATED'],
    row: (entry) => [entry.name, entry.target, entry.created_at],
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
