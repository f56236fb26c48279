// The screens of the left navigation, in order. A new screen is one entry here: an id, a label, an icon and
// the component (screens talk to main only through useBridge()).

import type { ComponentType } from 'react';
import { ChatScreen } from '../chat/chat-screen.js';
import { ChatIcon } from './icons.js';

export interface Screen {
  id: string;
  label: string;
  icon: ComponentType;
  component: ComponentType;
}

export const screens: readonly Screen[] = [{ id: 'chat', label: 'Chat', icon: ChatIcon, component: ChatScreen }];
