// The gateway in front of one fake upstream of each provider kind (test/support/three-kinds.ts), with the official
// openai SDK at /v1 for `client.responses`.

import OpenAI from 'openai';
import { callerSecret } from '../../gateway/harness.js';
import { startThreeKinds, type ThreeKinds } from '../../support/three-kinds.js';

export { anthropicModel, geminiModel, openaiModel } from '../../support/three-kinds.js';

export interface ResponsesHarness extends ThreeKinds {
  client: OpenAI;
  /** The /v1 base (the openai SDK's default shape). */
  v1: string;
}

export async function startResponsesHarness(): Promise<ResponsesHarness> {
  const kinds = await startThreeKinds({ callers: { 'key-1': callerSecret } });
  const v1 = kinds.served.baseURL.replace(/\/api\/v1$/, '/v1');
  return { ...kinds, client: new OpenAI({ baseURL: v1, apiKey: callerSecret, maxRetries: 0 }), v1 };
}
