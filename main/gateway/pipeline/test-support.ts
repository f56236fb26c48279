// For the gateway's unit tests: one generation (a chat request as admitted, its usage recorder writing into `rows`)
// and the context it runs in, where every `<provider>/<model>` resolves to `adapter` on `provider`, without retries.

import { pino } from 'pino';
import type { ChatRequest, ProviderInfo, UsageRecord } from '../../../shared/api/index.js';
import type {
  AdapterCompletion,
  ProviderAdapter,
  ResolvedModel,
  StreamPart,
  UpstreamTarget,
} from '../../providers/index.js';
import { UsageRecorder } from './usage-recorder.js';
import type { Generation, GenerationContext } from './generation.js';

export const testLogger = pino({ level: 'silent' });

/** The provider `p` the pipeline's tests resolve every model to (nothing listens at its address). */
export const testProvider: ProviderInfo = {
  id: 'p',
  kind: 'openai',
  base_url: 'http://127.0.0.1:9/v1',
  has_api_key: false,
  created_at: '',
};

export function testGeneration(
  adapter: ProviderAdapter,
  provider: ProviderInfo,
  request: Partial<ChatRequest> = {},
  callerSecrets: string[] = [],
) {
  const rows: UsageRecord[] = [];
  const controller = new AbortController();
  const chatRequest: ChatRequest = {
    model: 'p/m',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    ...request,
  };
  const generation: Generation = {
    id: 'gen-1',
    created: 1,
    request: chatRequest,
    keyId: 'k',
    recorder: new UsageRecorder({ record: (row) => rows.push(row) }, testLogger, {
      id: 'gen-1',
      created_at: 0,
      key_id: 'k',
      app_title: null,
      app_referer: null,
      model: chatRequest.model,
      streamed: chatRequest.stream,
    }),
    signal: controller.signal,
    logger: testLogger,
    callerSecrets,
    watches: [],
  };
  const context: GenerationContext = {
    providers: {
      resolve: async (model: string): Promise<ResolvedModel> => ({
        adapter,
        target: { provider, apiKey: null, model: model.split('/')[1]! },
      }),
    },
    errors: { logger: testLogger, bodyLimitBytes: 1024 },
    retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 },
  };
  return { generation, context, rows, controller, chatRequest };
}

/** An adapter whose streams and completions are scripted per call; records the targets it was given. */
export function scriptedAdapter(script: {
  stream?: (target: UpstreamTarget) => Promise<AsyncIterable<StreamPart>>;
  complete?: (target: UpstreamTarget) => Promise<AdapterCompletion>;
}) {
  const targets: unknown[] = [];
  const adapter: ProviderAdapter = {
    kind: 'openai',
    listModels: async () => [],
    streamChat: async (_request, target) => {
      targets.push(target);
      return script.stream!(target);
    },
    completeChat: async (_request, target) => {
      targets.push(target);
      return script.complete!(target);
    },
  };
  return { adapter, targets };
}
