// The key-rule options shared by `keys create` and `keys update`, their conversion to a KeyRulesChange, the
// `keys update` command, and how `keys list` shows rules.

import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  describeAccess,
  describeLimit,
  describeRate,
  limitResets,
  type ApiKeyDetails,
  type KeyRulesChange,
  type LimitReset,
} from '../../shared/api/index.js';
import { formatJson } from './output.js';
import { withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

export interface KeyRuleOptions {
  limit?: string | false;
  limitReset?: LimitReset;
  allowModels?: string[];
  allModels?: boolean;
  allowProviders?: string[];
  allProviders?: boolean;
  management?: boolean;
  expires?: string;
  expiry?: boolean;
  disable?: boolean;
  enable?: boolean;
  rpm?: number | false;
  tpm?: number | false;
  allowMcp?: string[];
  mcp?: boolean;
  allowMetrics?: boolean;
}

export function parseUsd(value: string): string {
  if (!/^\d+(\.\d{1,9})?$/.test(value)) throw new InvalidArgumentError('expected an amount of USD such as 5 or 0.25');
  return value;
}

function parseList(value: string): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('expected a comma-separated list');
  return items;
}

function parsePerMinute(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a whole number of at least 1');
  return Number(value);
}

/** Adds the rule options to `keys create` or `keys update`. */
export function addKeyRuleOptions(command: Command): Command {
  return command
    .option('--limit <usd>', 'spend limit in USD; requests get 402 once it is reached', parseUsd)
    .option('--no-limit', 'no spend limit')
    .addOption(
      new Option('--limit-reset <period>', 'when the limit starts over (at 00:00 UTC; weeks start on Monday)').choices(
        limitResets,
      ),
    )
    .option('--allow-models <patterns>', 'only these models: comma-separated provider/model or provider/*', parseList)
    .option('--all-models', 'remove the model allow-list')
    .option('--allow-providers <ids>', 'only these providers: comma-separated provider ids', parseList)
    .option('--all-providers', 'remove the provider allow-list')
    .option('--management', 'may list and delete every key over HTTP')
    .option('--no-management', 'may list and delete only itself over HTTP (the default for new keys)')
    .option('--expires <iso>', 'stop working (401) after this ISO 8601 date or date-time')
    .option('--no-expiry', 'never expire')
    .option('--disable', 'refuse every request (401) until --enable')
    .option('--enable', 'accept requests again')
    .option('--rpm <n>', 'at most this many chat requests per minute (429 with Retry-After)', parsePerMinute)
    .option('--no-rpm', 'no request rate limit')
    .option('--tpm <n>', 'at most this many prompt + completion tokens per minute (429)', parsePerMinute)
    .option('--no-tpm', 'no token rate limit')
    .option(
      '--allow-mcp <names>',
      "may use the MCP hub at /mcp: comma-separated servers, server__tool names, or '*' for every server",
      parseList,
    )
    .option('--no-mcp', 'may not use the MCP hub (the default for new keys)')
    .option('--allow-metrics', "may read the gateway's Prometheus metrics at GET /metrics")
    .option('--no-allow-metrics', 'may not read /metrics unless it is a management key (the default for new keys)');
}

/** The change the options ask for; throws on contradictory options. */
export function keyRulesChangeFrom(options: KeyRuleOptions): KeyRulesChange {
  const change: KeyRulesChange = {};
  if (options.limit !== undefined) change.limit = options.limit === false ? null : Number(options.limit);
  if (options.limitReset !== undefined) change.limit_reset = options.limitReset;
  if (options.allowModels && options.allModels) throw new Error('Use either --allow-models or --all-models.');
  if (options.allowModels) change.allowed_models = options.allowModels;
  if (options.allModels) change.allowed_models = null;
  if (options.allowProviders && options.allProviders)
    throw new Error('Use either --allow-providers or --all-providers.');
  if (options.allowProviders) change.allowed_providers = options.allowProviders;
  if (options.allProviders) change.allowed_providers = null;
  if (options.management !== undefined) change.management = options.management;
  if (options.expires !== undefined && options.expiry === false)
    throw new Error('Use either --expires or --no-expiry.');
  if (options.expires !== undefined) change.expires_at = options.expires;
  if (options.expiry === false) change.expires_at = null;
  if (options.disable && options.enable) throw new Error('Use either --disable or --enable.');
  if (options.disable) change.disabled = true;
  if (options.enable) change.disabled = false;
  if (options.rpm !== undefined) change.requests_per_minute = options.rpm === false ? null : options.rpm;
  if (options.tpm !== undefined) change.tokens_per_minute = options.tpm === false ? null : options.tpm;
  if (options.allowMcp && options.mcp === false) throw new Error('Use either --allow-mcp or --no-mcp.');
  if (options.allowMcp) change.allowed_mcp = options.allowMcp;
  // Commander sets `mcp` to true by default because of --no-mcp: only the flag itself means a change.
  if (options.mcp === false) change.allowed_mcp = null;
  if (options.allowMetrics !== undefined) change.metrics = options.allowMetrics;
  return change;
}

export function registerKeyUpdateCommand(keys: Command, context: CommandContext): void {
  const { output } = context;
  addKeyRuleOptions(
    keys
      .command('update')
      .description('rename a key or change its rules; a running gateway applies them at its next request')
      .argument('<id>', 'the key id shown by `keys list`'),
  )
    .option('--name <name>', 'a new name for the key')
    .option('--json', 'print the key and its rules as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (id: string, options: KeyRuleOptions & { name?: string; json?: boolean; dataDir?: string }) => {
      const change = keyRulesChangeFrom(options);
      if (Object.keys(change).length === 0 && options.name === undefined)
        throw new Error('Nothing to change: give a new --name or at least one rule option (see --help).');
      await withApp(context, options, async (app) => {
        const updated = await app.keys.update(id, change, options.name);
        if (options.json) return output.out(formatJson(updated));
        output.out(`Updated key ${updated.id} ("${updated.name}"): ${describeKeyRules(updated).join('; ')}.`);
      });
    });
}

/** The rules of a key in a few words each, for lists and confirmations. */
export function describeKeyRules(key: ApiKeyDetails): string[] {
  return [
    `limit ${describeLimit(key)}`,
    `access ${describeAccess(key)}`,
    `management ${key.management ? 'yes' : 'no'}`,
    `expires ${key.expires_at ?? 'never'}`,
    `rate ${describeRate(key)}`,
    key.disabled ? 'disabled' : 'enabled',
    `mcp ${key.allowed_mcp ? key.allowed_mcp.join(',') : 'none'}`,
    `metrics ${key.metrics || key.management ? 'yes' : 'no'}`,
  ];
}
