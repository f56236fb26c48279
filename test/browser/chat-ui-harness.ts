// The set-up of the chat's browser tests: a scripted upstream as provider "fake" of a real `switchyard serve`, for
// all the tests of a file, closed after them.

import {
  startScriptedUpstream,
  type ScriptedUpstream,
  type ScriptedUpstreamOptions,
} from '../chat/scripted-upstream.js';
import { useUpstreamUi, type UiHarness, type UpstreamUiOptions } from './ui-harness.js';

export interface ChatUiOptions extends Pick<UpstreamUiOptions, 'apiKey' | 'prepare'> {
  upstream?: ScriptedUpstreamOptions;
}

/** Registers the start (handing what it made to `made`) and the close in the current file or block. */
export function useChatUi(
  made: (started: { ui: UiHarness; upstream: ScriptedUpstream }) => void,
  { upstream, ...options }: ChatUiOptions = {},
): void {
  useUpstreamUi(() => startScriptedUpstream(upstream), made, options);
}
