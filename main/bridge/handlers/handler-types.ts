// The shape of a handler: the validated request in, the channel's response out.

import type { BridgeChannel, BridgeParsedRequest, BridgeResponse } from '../../../shared/bridge/contract.js';

export type BridgeHandler<C extends BridgeChannel> = (
  request: BridgeParsedRequest<C>,
) => BridgeResponse<C> | Promise<BridgeResponse<C>>;

/** Handlers for some channels (one area's file). */
export type BridgeHandlerMap<C extends BridgeChannel = BridgeChannel> = { [K in C]: BridgeHandler<K> };
