// POST {base}/embeddings in OpenAI's shape (string, strings or token ids; `dimensions`; `encoding_format`), routed
// like chat: `<provider>/<model>`, the key's rules, credits and rate limits, retries of the same model, a usage
// row with cost. OpenAI-compatible providers embed natively, Gemini through batchEmbedContents; a kind without an
// embeddings API (Anthropic) is a 400 that says so.

import type { FastifyInstance } from 'fastify';
import { ApiError, embeddingsRequestSchema, type EmbeddingsResponse, type Usage } from '../../shared/api/index.js';
import type { ApiBase } from './api-bases.js';
import { authenticatedKey, presentedSecret } from './auth.js';
import { newGenerationId } from './chat/generation.js';
import type { ChatRouteContext } from './chat-completions-route.js';
import { toApiError } from './errors.js';
import { attemptInOrder, candidateModels, defaultRetryPolicy } from './upstream-attempts.js';
import { headerText, UsageRecorder } from './usage-recorder.js';
import { parseRequestBody } from './validate-chat-request.js';

export function registerEmbeddingsRoute(server: FastifyInstance, base: ApiBase, context: ChatRouteContext): void {
  const { deps, inFlight } = context;

  server.post(`${base.prefix}/embeddings`, async (request, reply) => {
    const key = authenticatedKey(request);
    const embeddingsRequest = parseRequestBody(embeddingsRequestSchema, request.body, {}, ['model', 'input']);
    const recorder = new UsageRecorder(deps.usage, deps.logger, {
      id: newGenerationId(),
      created_at: Date.now(),
      key_id: key.id,
      app_title: headerText(request, 'x-title'),
      app_referer: headerText(request, 'http-referer'),
      model: embeddingsRequest.model,
      streamed: false,
    });
    const signal = inFlight.controllerOf(request).signal;
    const callerSecrets = [presentedSecret(request) ?? ''];
    try {
      deps.accounts?.admit(key.id, embeddingsRequest);
      const answered = await attemptInOrder(
        {
          models: candidateModels(embeddingsRequest),
          resolve: async (model) => {
            const resolved = await deps.providers.resolve(model);
            recorder.provider = resolved.target.provider.id;
            return resolved;
          },
          signal,
          policy: context.retry ?? defaultRetryPolicy,
          logger: deps.logger,
        },
        (model, { adapter, target }, attemptSignal) => {
          if (!adapter.embed) {
            throw new ApiError(
              400,
              `Model "${model}" cannot embed: providers of kind ${adapter.kind} have no embeddings API.`,
            );
          }
          return adapter.embed(embeddingsRequest, { ...target, callerSecrets }, attemptSignal);
        },
      );
      const { embeddings, usage: upstreamUsage } = answered.value;
      const usage: Usage = {
        prompt_tokens: upstreamUsage?.prompt_tokens ?? 0,
        completion_tokens: 0,
        total_tokens: upstreamUsage?.total_tokens ?? upstreamUsage?.prompt_tokens ?? 0,
      };
      recorder.markFirstToken();
      const priced = recorder.addCost(usage);
      recorder.record({ status: 200, finishReason: null, usage });
      const body: EmbeddingsResponse = {
        object: 'list',
        data: embeddings.map(({ index, embedding }) => ({ object: 'embedding', index, embedding })),
        model: answered.model,
        usage: {
          prompt_tokens: priced.prompt_tokens,
          total_tokens: priced.total_tokens,
          ...(priced.cost !== undefined ? { cost: priced.cost } : {}),
        },
      };
      return reply.code(200).send(body);
    } catch (error) {
      if (signal.aborted) {
        recorder.record({ status: 499, finishReason: 'cancelled' });
        reply.hijack();
        return undefined;
      }
      const apiError = toApiError(error, context.errors);
      recorder.record({ status: apiError.status, finishReason: null, error: apiError.message });
      return reply.code(apiError.status).headers(apiError.headers).send(apiError.toBody());
    }
  });
}
