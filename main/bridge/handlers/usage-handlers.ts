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
    'usage:summary': (query) => {
      const rows = accounts.usageSummary(query);
      return { rows, total: totalOfUsage(rows) };
    },
    'usage:recent': (query) => ({ rows: accounts.usageRows(query) }),
    'usage:generation': ({ id }) => {
      const generation = accounts.generationById(id);
      if (!generation) throw new ApiError(404, `There is no request "${id}" in the usage log.`);
      return { generation };
    },
    'usage:export-csv': ({ kind, by, since, until }) =>
      kind === 'requests'
        ? { fileName: `switchyard-requests-${today()}.csv`, csv: usageRowsCsv(accounts.usageRows({ since, until })) }
        : {
            fileName: `switchyard-usage-by-${by}-${today()}.csv`,
            csv: usageSummaryCsv(by, accounts.usageSummary({ by, since, until })),
          },
    'credits:show': () => ({ status: accounts.creditsStatus(), history: accounts.creditLedger() }),
    'credits:set': ({ amount }) => ({ status: accounts.setCredits(amount) }),
    'credits:add': ({ amount }) => ({ status: accounts.addCredits(amount) }),
    'credits:unset': () => ({ status: accounts.unsetCredits() }),
  };
}
