// `switchyard prices list|set|unset`: the per-model prices costs are computed with (decision 004). Overrides are
// stored in the database and win over the bundled table; a running gateway uses them from its next request.

import { InvalidArgumentError, type Command } from 'commander';
import { formatUsdExactly, type ModelPriceInfo } from '../../shared/api/index.js';
import { addListCommand, addRemoveCommand, withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

interface SetOptions {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  dataDir?: string;
}

function perMillion(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected USD per million tokens, e.g. 2.5');
  return Number(value);
}

const shown = (price: number | null) => (price === null ? '=input' : formatUsdExactly(price));

const atInput = (price: number | null) => (price === null ? 'at the input price' : formatUsdExactly(price));

function describe(price: ModelPriceInfo): string {
  return (
    `${price.model}: input ${formatUsdExactly(price.input)}, output ${formatUsdExactly(price.output)}, ` +
    `cache read ${atInput(price.cache_read)}, cache write ${atInput(price.cache_write)} per million tokens`
  );
}

export function registerPricesCommands(program: Command, context: CommandContext): void {
  const { output } = context;
  const prices = program
    .command('prices')
    .description('model prices in USD per million tokens: the bundled table and your overrides');

  addListCommand(prices, context, {
    name: 'list',
    description: 'list your overrides, then the bundled prices they do not replace',
    list: (app) => app.accounts.prices.list(),
    headers: ['MODEL', 'SOURCE', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE'],
    row: (price) => [
      price.model,
      price.source,
      formatUsdExactly(price.input),
      formatUsdExactly(price.output),
      shown(price.cache_read),
      shown(price.cache_write),
    ],
    note: 'USD per million tokens. "=input": billed at the input price.',
  });

  prices
    .command('set')
    .description(
      'set the price of a model, in USD per MILLION tokens; MODEL is an upstream name (gpt-4o: every provider) or a full id (myazure/gpt-4o: only that provider)',
    )
    .argument('<model>', 'e.g. gpt-4o, claude-sonnet-4, or myprovider/my-model')
    .requiredOption('--input <usd>', 'USD per million input (prompt) tokens', perMillion)
    .requiredOption('--output <usd>', 'USD per million output (completion) tokens', perMillion)
    .option('--cache-read <usd>', 'USD per million cached input tokens (default: the input price)', perMillion)
    .option(
      '--cache-write <usd>',
      'USD per million tokens written to the prompt cache (default: the input price)',
      perMillion,
    )
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (model: string, options: SetOptions) =>
      withApp(context, options, async (app) => {
        const price = await app.accounts.prices.set(model, {
          input: options.input,
          output: options.output,
          cacheRead: options.cacheRead,
          cacheWrite: options.cacheWrite,
        });
        output.out(`Price set. ${describe(price)}.`);
      }),
    );

  addRemoveCommand(prices, context, {
    name: 'unset',
    description: 'remove your price for a model (the bundled price, if any, applies again)',
    argument: ['<model>', 'the model as given to `prices set`'],
    remove: (app, model) => app.accounts.prices.unset(model),
    missing: (model) => `No price of yours for "${model}".`,
    removed: (model) => `Removed your price for ${model}.`,
  });
}
