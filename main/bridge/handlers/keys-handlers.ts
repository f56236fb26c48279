import { ApiError } from '../../../shared/api/index.js';
import type { Accounts, ApiKeys } from '../../accounts/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type KeysChannel = 'keys:list' | 'keys:create' | 'keys:update' | 'keys:delete';

export function keysHandlers(keys: ApiKeys, accounts: Pick<Accounts, 'keysWithUsage'>): BridgeHandlerMap<KeysChannel> {
  return {
    'keys:list': async () => ({ keys: await accounts.keysWithUsage() }),
    // The one answer with the secret in it; nothing keeps it (the database has only its hash).
    'keys:create': async ({ name, ...rules }) => {
      const { key: secret, ...key } = await keys.create(name, rules);
      return { key, secret };
    },
    'keys:update': async ({ id, name, ...rules }) => ({ key: await keys.update(id, rules, name) }),
    'keys:delete': async ({ id }) => {
      if (!(await keys.delete(id))) throw new ApiError(404, `There is no API key "${id}".`);
      return { deleted: true };
    },
  };
}
