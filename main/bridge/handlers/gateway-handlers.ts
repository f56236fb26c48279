import type { AppInfo } from '../../../shared/bridge/types.js';
import { gatewayInfo } from '../gateway-snippets.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function gatewayHandlers(appInfo: () => AppInfo): BridgeHandlerMap<'gateway:info'> {
  return { 'gateway:info': ({ model }) => gatewayInfo(appInfo().gatewayUrl, model) };
}
