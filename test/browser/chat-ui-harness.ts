// The set-up of the chat's browser tests: a scripted upstream as provider "fake" of a real `switchyard serve`, for
// all the tests of a file, closed after them.

import { beforeAll } from 'vitest';
import {
  startScriptedUpstream,
  type ScriptedUpstream,
  type ScriptedUpstreamOptions,
} from '../chat/scripted-upstream.js';
import { seedProvider } from './seed.js';
import { closeAfterTests, startUi, type UiHarness } from './ui-harness.js';

export interface ChatUiOptions {
  upstream?: ScriptedUpstreamOptions;
  /** The provider's key, when a test looks for it (to prove it never reaches the page). */
  apiKey?: string;
  /** More of the data folder, before serve starts. */
  prepare?(dataDir: string): Promise<void>;
}

/** Registers the start (handing what it made to `made`) and the close in the current file or block. */
export function useChatUi(
  made: (started: { ui: UiHarness; upstream: ScriptedUpstream }) => void,
  options: ChatUiOptions = {},
): void {
  let ui: UiHarness | undefined;
  let upstream: ScriptedUpstream | undefined;
  beforeAll(async () => {
    const started = await startScriptedUpstream(options.upstream);
    upstream = started;
    ui = await startUi({
      prepare: async (dataDir) => {
        await seedProvider(dataDir, {
          id: 'fake',
          baseUrl: started.baseUrl,
          ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        });
        await options.prepare?.(dataDir);
      },
    });
    made({ ui, upstream: started });
  }, 120_000);
  closeAfterTests(
    () => ui,
    () => upstream,
  );
}
