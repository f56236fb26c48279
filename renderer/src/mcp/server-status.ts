// How a server's state reads: the dot's colour and the words beside it.

import type { McpServerStatus } from '../../../shared/bridge/types.js';
import type { DotState } from '../ui/parts.js';

export const dotOf: Record<McpServerStatus['state'], DotState> = {
  connected: 'ok',
  connecting: 'busy',
  disconnected: 'off',
  disabled: 'off',
  'needs-sign-in': 'busy',
  error: 'error',
};

export function stateText(server: McpServerStatus): string {
  switch (server.state) {
    case 'connected':
      return `connected · ${server.toolCount} ${server.toolCount === 1 ? 'tool' : 'tools'}`;
    case 'connecting':
      return 'connecting…';
    case 'needs-sign-in':
      return 'needs sign-in';
    default:
      return server.state;
  }
}
