// The Providers screen's model aliases: names tools send (`claude-sonnet-4-5`) pointed at a `<provider>/<model>` or
// a model group, stored where the CLI and every gateway process read them.

import type { ModelAliases } from '../../providers/model-aliases.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function aliasesHandlers(
  aliases: Pick<ModelAliases, 'list' | 'set' | 'remove'>,
): BridgeHandlerMap<'aliases:list' | 'aliases:set' | 'aliases:remove'> {
  return {
    'aliases:list': () => ({ aliases: aliases.list() }),
    'aliases:set': async ({ name, target, targets, strategy, weights }) => {
      const group = targets && { targets, strategy: strategy ?? 'ordered', weights: weights ?? null };
      const { alias, previous } = await aliases.set(name, group ?? target);
      return { alias, previous: previous ?? null };
    },
    'aliases:remove': async ({ name }) => ({ removed: await aliases.remove(name) }),
  };
}
