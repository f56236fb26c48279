import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  describeTargetHealth,
  effectiveCooldown,
  providerKinds,
  type ProviderCooldown,
  type ProviderInfo,
  type ProviderTimeouts,
  type TargetHealthInfo,
} from '../../shared/api/index.js';
import { withTargetHealth } from '../providers/target-health.js';
import { addListCommand, addRemoveCommand, withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';
import { readSecretFromEnv, readSecretFromStdin } from './read-secret.js';

interface AddOptions {
  kind: string;
  baseUrl: string;
  apiKeyEnv?: string;
  apiKey: boolean;
  dataDir?: string;
  headersTimeout?: number;
  streamHeadersTimeout?: number;
  idleTimeout?: number;
  cooldownAfter?: number;
  /** Seconds, or false for `--no-cooldown`. */
  cooldown?: number | false;
}

function seconds(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || parsed < 1) throw new InvalidArgumentError('a whole number of seconds, 1 or more');
  return parsed;
}

function timeoutsOf(options: AddOptions): ProviderTimeouts | undefined {
  const timeouts: ProviderTimeouts = {};
  if (options.headersTimeout !== undefined) timeouts.headers = options.headersTimeout;
  if (options.streamHeadersTimeout !== undefined) timeouts.stream_headers = options.streamHeadersTimeout;
  if (options.idleTimeout !== undefined) timeouts.idle = options.idleTimeout;
  return Object.keys(timeouts).length > 0 ? timeouts : undefined;
}

function failures(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || parsed > 1000) throw new InvalidArgumentError('a whole number from 0 to 1000');
  return parsed;
}

function cooldownOf(options: Pick<AddOptions, 'cooldownAfter' | 'cooldown'>): ProviderCooldown | undefined {
  if (options.cooldown === false) return { after: 0 };
  const cooldown: ProviderCooldown = {};
  if (options.cooldownAfter !== undefined) cooldown.after = options.cooldownAfter;
  if (options.cooldown !== undefined) cooldown.seconds = options.cooldown;
  return Object.keys(cooldown).length > 0 ? cooldown : undefined;
}

/** `--cooldown-after`, `--cooldown` and `--no-cooldown`, on `add` and `update`. */
function withCooldownOptions(command: Command): Command {
  return command
    .option(
      '--cooldown-after <failures>',
      'cool a target down after this many failures (429, 5xx, timeouts, refused connections) within 60 s; 0 = never (default 3)',
      failures,
    )
    .option(
      '--cooldown <seconds>',
      'the first cooldown; it doubles while the target keeps failing, up to 10 min (default 30)',
      seconds,
    )
    .option('--no-cooldown', "never cool this provider's targets down (as --cooldown-after 0)");
}

/** What `providers list` says of a provider's cooldowns: its settings, then each target not healthy. */
function cooldownColumns(provider: ProviderInfo): [string, string] {
  const settings = effectiveCooldown(provider.cooldown);
  const cooldown = settings === null ? 'off' : `after ${settings.after}, ${settings.seconds} s`;
  const targets = provider.targets ?? [];
  return [cooldown, targets.length === 0 ? 'healthy' : targets.map(describeTarget).join('; ')];
}

function describeTarget(target: TargetHealthInfo): string {
  return `${target.model} ${describeTargetHealth(target)}`;
}

async function apiKeyFor(id: string, options: AddOptions): Promise<string | null> {
  if (!options.apiKey) return null;
  if (options.apiKeyEnv) return readSecretFromEnv(options.apiKeyEnv);
  const value = await readSecretFromStdin(`API key for "${id}" (leave empty for none): `);
  return value.trim() === '' ? null : value.trim();
}

export function registerProviderCommands(program: Command, context: CommandContext): void {
  const providers = program.command('providers').description('manage the upstream LLM providers models route to');
  const { output } = context;

  const add = providers
    .command('add')
    .description('add or replace a provider; its API key goes to the OS keychain')
    .argument('<id>', 'the <provider> part of "<provider>/<model>", e.g. openai')
    .addOption(
      new Option('--kind <kind>', 'the API the provider speaks').choices([...providerKinds]).makeOptionMandatory(),
    )
    .requiredOption('--base-url <url>', 'e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1')
    .option('--api-key-env <var>', 'read the API key from this environment variable (else from standard input)')
    .option('--no-api-key', 'the provider needs no API key')
    .option('--headers-timeout <seconds>', 'wait this long for a whole answer to start (default 600)', seconds)
    .option('--stream-headers-timeout <seconds>', 'wait this long for a stream to start (default 120)', seconds)
    .option(
      '--idle-timeout <seconds>',
      'longest silence between two stream events, or while a whole answer arrives (default 300)',
      seconds,
    );

  withCooldownOptions(add)
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (id: string, options: AddOptions) => {
      // Read the secret before opening the data dir, so a slow typist holds no database handle.
      const apiKey = await apiKeyFor(id, options);
      await withApp(context, options, async (app) => {
        const timeouts = timeoutsOf(options);
        const cooldown = cooldownOf(options);
        const added = await app.providers.add({
          id,
          kind: options.kind,
          baseUrl: options.baseUrl,
          apiKey,
          ...(timeouts ? { timeouts } : {}),
          ...(cooldown ? { cooldown } : {}),
        });
        const where = added.has_api_key ? `API key stored in ${(await app.secrets()).location}` : 'no API key';
        output.out(`Provider ${added.id} (${added.kind}) at ${added.base_url}; ${where}.`);
      });
    });

  withCooldownOptions(
    providers
      .command('update')
      .description("change a configured provider's base URL or cooldowns; what is not given stays")
      .argument('<id>', 'the provider id')
      .option('--base-url <url>', 'a new base URL'),
  )
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (id: string, options: Pick<AddOptions, 'baseUrl' | 'cooldownAfter' | 'cooldown' | 'dataDir'>) => {
      await withApp(context, options, async (app) => {
        // The flags given change those settings; the others stay.
        const given = cooldownOf(options);
        const cooldown = given && (given.after === 0 ? given : { ...app.providers.get(id)?.cooldown, ...given });
        const updated = await app.providers.update(id, {
          ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
          ...(cooldown ? { cooldown } : {}),
        });
        const [settings] = cooldownColumns(updated);
        output.out(`Provider ${updated.id} at ${updated.base_url}; cooldown ${settings}.`);
      });
    });

  addListCommand(providers, context, {
    name: 'list',
    description: 'list providers: configured, from the environment (OPENAI_API_KEY…) and local servers found running',
    list: async (app) => withTargetHealth(await app.registry.listProviders(), app.targetHealth.states()),
    empty: 'No providers yet. Add one with: switchyard providers add ID --kind openai --base-url URL',
    headers: ['ID', 'KIND', 'BASE URL', 'API KEY', 'SOURCE', 'ADDED', 'COOLDOWN', 'TARGETS'],
    row: (provider) => [
      provider.id,
      provider.kind,
      provider.base_url,
      !provider.has_api_key ? 'none' : provider.source === 'environment' ? 'env' : 'stored',
      provider.source ?? 'configured',
      provider.created_at,
      ...cooldownColumns(provider),
    ],
  });

  addRemoveCommand(providers, context, {
    name: 'remove',
    description: 'remove a provider and its stored API key',
    argument: ['<id>', 'the provider id'],
    remove: (app, id) => app.providers.remove(id),
    missing: (id) => `No provider with id "${id}".`,
    removed: (id) => `Removed provider ${id}.`,
  });
}
