// The screens of the left navigation, in order. A new screen is one entry here: an id, a label, an icon and
// the component (screens talk to main only through useBridge()).

import type { ComponentType } from 'react';
import { ActivityScreen } from '../activity/activity-screen.js';
import { ChatScreen } from '../chat/chat-screen.js';
import { GatewayScreen } from '../gateway/gateway-screen.js';
import { KeysScreen } from '../keys/keys-screen.js';
import { McpScreen } from '../mcp/mcp-screen.js';
import { ProvidersScreen } from '../providers/providers-screen.js';
import { ChartIcon, ChatIcon, CloudIcon, GatewayIcon, KeyIcon, PlugIcon } from './icons.js';

export interface Screen {
  id: string;
  label: string;
  icon: ComponentType;
  component: ComponentType;
}

export const screens: readonly Screen[] = [
  { id: 'chat', label: 'Chat', icon: ChatIcon, component: ChatScreen },
  { id: 'providers', label: 'Providers', icon: CloudIcon, component: ProvidersScreen },
  { id: 'mcp', label: 'MCP', icon: PlugIcon, component: McpScreen },
  { id: 'keys', label: 'Keys', icon: KeyIcon, component: KeysScreen },
  { id: 'activity', label: 'Activity', icon: ChartIcon, component: ActivityScreen },
  { id: 'gateway', label: 'Gateway', icon: GatewayIcon, component: GatewayScreen },
];
