import type { AppInfo } from '../../../shared/bridge/types.js';
import type { App } from '../../app/index.js';
import { gatewayInfo } from '../gateway-snippets.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function gatewayHandlers(
  appInfo: () => AppInfo,
  responseCache: App['responseCache'],
): BridgeHandlerMap<'gateway:info' | 'gateway:cache-setting' | 'gateway:set-cache-setting'> {
  return {
    'gateway:info': ({ model }) => gatewayInfo(appInfo().gatewayUrl, model),
    'gateway:cache-setting': () => responseCache.view(),
    'gateway:set-cache-setting': (choice) => responseCache.save(choice),
  };
}
