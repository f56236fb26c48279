import type { AppInfo } from '../../../shared/bridge/types.js';
import type { BridgeHandlerMap } from './handler-types.js';

export function appHandlers(appInfo: () => AppInfo): BridgeHandlerMap<'app:info'> {
  return { 'app:info': () => appInfo() };
}
