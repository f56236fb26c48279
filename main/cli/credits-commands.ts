// `switchyard credits show|set|add|unset|history`: the account balance in USD that requests spend (decision 004).

import type { Command } from 'commander';
import type { App } from '../app/index.js';
import { formatUsd, usdToNanos, type CreditsStatus } from '../../shared/api/index.js';
import { parseUsd } from './key-rule-options.js';
import { formatJson } from './output.js';
import { addListCommand, withApp, type CommandContext } from './command-context.js';
import { dataDirOption, databaseUrlOption } from './shared-options.js';

const usd = (amount: number) => formatUsd(usdToNanos(amount));

function describe(status: CreditsStatus): string {
  if (!status.limited) {
    return `Unlimited: no balance is set, so no request is refused for credits. Used so far: ${usd(status.used)}.`;
  }
  return `Balance: ${usd(status.balance!)} (granted ${usd(status.granted!)}, used ${usd(status.used)}).`;
}

/** Commander reads `-5` as an unknown option; say what is wrong instead. */
function amountArgument(value: string): string {
  if (value.startsWith('-'))
    throw new Error('The amount must not be negative; to lower the balance use: credits set USD');
  return parseUsd(value);
}

export function registerCreditsCommands(program: Command, context: CommandContext): void {
  const { output } = context;
  const credits = program
    .command('credits')
    .description('the USD balance requests spend; without one (the default) spending is unlimited');

  credits
    .command('show', { isDefault: true })
    .description('print the balance, what was granted and what was used')
    .option('--json', 'print {limited, balance, granted, used} in USD as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { json?: boolean; dataDir?: string }) =>
      withApp(context, options, (app) => {
        const status = app.accounts.creditsStatus();
        output.out(options.json ? formatJson(status) : describe(status));
      }),
    );

  /** `credits set|add <usd>`: a change by the amount typed, then the balance after it. */
  const addAmountCommand = (
    name: string,
    description: string,
    argument: string,
    change: (app: App, usd: number) => Promise<CreditsStatus>,
  ) =>
    credits
      .command(name)
      .description(description)
      .argument('<usd>', argument, amountArgument)
      .addOption(dataDirOption())
      .addOption(databaseUrlOption())
      .allowUnknownOption()
      .action(async (amount: string, options: { dataDir?: string }) =>
        withApp(context, options, async (app) => output.out(describe(await change(app, Number(amount))))),
      );
  addAmountCommand(
    'set',
    'make the balance exactly this many USD (starts limiting if unlimited)',
    'the new balance in USD, e.g. 10 or 2.50',
    (app, usd) => app.accounts.setCredits(usd),
  );
  addAmountCommand(
    'add',
    'add USD to the balance (an unlimited account starts from 0)',
    'how many USD to add, more than 0',
    (app, usd) => app.accounts.addCredits(usd),
  );

  credits
    .command('unset')
    .description('remove the balance: spending becomes unlimited (usage is still recorded)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: { dataDir?: string }) =>
      withApp(context, options, async (app) => output.out(describe(await app.accounts.unsetCredits()))),
    );

  addListCommand(credits, context, {
    name: 'history',
    description: 'every change of the balance, oldest first',
    list: (app) => app.accounts.creditLedger(),
    empty: 'No credits were ever set.',
    headers: ['TIME', 'ACTION', 'AMOUNT', 'BALANCE AFTER'],
    row: (entry) => [
      entry.created_at,
      entry.action,
      usd(entry.amount),
      entry.balance_after === null ? 'unlimited' : usd(entry.balance_after),
    ],
  });
}
