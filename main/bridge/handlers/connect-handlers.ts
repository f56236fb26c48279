// "Connect a tool" on the Gateway screen: the same connect as `switchyard connect`, against the gateway this app
// runs. Apply answers the new key's secret once (the panel shows it as the Keys screen does); the files that hold
// it are 0600.

import type { AppInfo } from '../../../shared/bridge/types.js';
import type { ToolConnections } from '../../connect/index.js';
import { BridgeFailure } from '../bridge-errors.js';
import type { BridgeHandlerMap } from './handler-types.js';

type ConnectChannel = 'connect:list' | 'connect:preview' | 'connect:apply' | 'connect:undo';

/** `connections`: loads main/connect on the first call (see create-bridge-handlers.ts). */
export function connectHandlers(
  connections: () => Promise<ToolConnections>,
  appInfo: () => AppInfo,
): BridgeHandlerMap<ConnectChannel> {
  const gatewayUrl = () => {
    const url = appInfo().gatewayUrl;
    if (url === null)
      throw new BridgeFailure('unavailable', 'The gateway is not listening, so there is nothing to connect a tool to.');
    return url;
  };
  return {
    'connect:list': async () => ({ tools: (await connections()).list() }),
    'connect:preview': async ({ tool, model }) =>
      (await connections()).preview(tool, { gatewayUrl: gatewayUrl(), model }),
    'connect:apply': async ({ tool, model }) =>
      (await connections()).connect(tool, { gatewayUrl: gatewayUrl(), model }),
    'connect:undo': async ({ tool }) => (await connections()).undo(tool),
  };
}
