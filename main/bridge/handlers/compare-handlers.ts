import type { ChatCompare } from '../../chat/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type CompareChannel =
  'chat:compare' | 'chat:compare-get' | 'chat:compare-stop' | 'chat:compare-pick' | 'chat:compare-discard';

export function compareHandlers(compare: ChatCompare): BridgeHandlerMap<CompareChannel> {
  return {
    'chat:compare': ({ conversationId, text, models }) => compare.start(conversationId, text, models),
    'chat:compare-get': ({ conversationId }) => ({ comparison: compare.snapshot(conversationId) }),
    'chat:compare-stop': ({ compareId, column }) => ({ stopped: compare.stop(compareId, column) }),
    'chat:compare-pick': ({ compareId, column }) => compare.pick(compareId, column),
    'chat:compare-discard': ({ compareId }) => ({ discarded: compare.discard(compareId) }),
  };
}
