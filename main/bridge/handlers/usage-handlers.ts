import { ApiError, totalOfUsage } from '../../../shared/api/index.js';
import { usageRowsCsv, usageSummaryCsv, type Accounts } from '../../accounts/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type UsageChannel =
  | 'usage:summary'
  | 'usage:recent'
  | 'usage:generation'
  | 'usage:export-csv'
  | 'credits:show'
  | 'credits:set'
  | 'credits:add'
  | 'credits:unset';

export function usageHandlers(accounts: Accounts, now: () => number = Date.now): BridgeHandlerMap<UsageChannel> {
  const today = () => new Date(now()).toISOString().slice(0, 10);
  return {
    'usage:summary': async (query) => {
      const rows = await accounts.usageSummary(query);
      return { rows, total: totalOfUsage(rows) };
    },
    'usage:recent': async (query) => ({ rows: await accounts.usageRows(query) }),
    'usage:generation': async ({ id }) => {
      const generation = await accounts.generationById(id);
      if (!generation) throw new ApiError(404, `There is no request "${id}" in the usage log.`);
      return { generation };
    },
    'usage:export-csv': async ({ kind, by, since, until }) =>
      kind === 'requests'
        ? {
            fileName: `switchyard-requests-${today()}.csv`,
            csv: usageRowsCsv(await accounts.usageRows({ since, until })),
          }
        : {
            fileName: `switchyard-usage-by-${by}-${today()}.csv`,
            csv: usageSummaryCsv(by, await accounts.usageSummary({ by, since, until })),
          },
    'credits:show': async () => ({ status: accounts.creditsStatus(), history: await accounts.creditLedger() }),
    'credits:set': async ({ amount }) => ({ status: await accounts.setCredits(amount) }),
    'credits:add': async ({ amount }) => ({ status: await accounts.addCredits(amount) }),
    'credits:unset': async () => ({ status: await accounts.unsetCredits() }),
  };
}
