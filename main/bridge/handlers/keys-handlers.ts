import { ApiError } from '../../../shared/api/index.js';
import type { Accounts, ApiKeys } from '../../accounts/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type KeysChannel = 'keys:list' | 'keys:create' | 'keys:update' | 'keys:delete';

export function keysHandlers(keys: ApiKeys, accounts: Pick<Accounts, 'keysWithUsage'>): BridgeHandlerMap<KeysChannel> {
  return {
    'keys:list': () => ({ keys: accounts.keysWithUsage() }),
    // The one answer with the secret in it; nothing keeps it (the database has only its hash).
    'keys:create': ({ name, ...rules }) => {
      const { key: secret, ...key } = keys.create(name, rules);
      return { key, secret };
    },
    'keys:update': ({ id, name, ...rules }) => ({ key: keys.update(id, rules, name) }),
    'keys:delete': ({ id }) => {
      if (!keys.delete(id)) throw new ApiError(404, `There is no API key "${id}".`);
      return { deleted: true };
    },
  };
}
