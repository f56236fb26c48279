// POST {base}/embeddings in OpenAI's shape (string, strings or token ids; `dimensions`; `encoding_format`), routed
// like chat: `<provider>/<model>`, the key's rules, credits and rate limits, retries of the same model, a usage
// row with cost. OpenAI-compatible providers embed natively, Gemini through batchEmbedContents; a kind without an
// embeddings API (Anthropic) is a 400 that says so.

import type { FastifyInstance } from 'fastify';
import { ApiError, embeddingsRequestSchema, type EmbeddingsResponse, type Usage } from '../../../shared/api/index.js';
import type { ApiBase } from '../http/api-bases.js';
import type { ChatRouteContext } from './chat-completions-route.js';
import { attemptRouted, sendRoutedFailure, startRoutedCall } from '../routed-call.js';
import { parseRequestBody } from '../http/validate-chat-request.js';

export function registerEmbeddingsRoute(server: FastifyInstance, base: ApiBase, context: ChatRouteContext): void {
  server.post(`${base.prefix}/embeddings`, async (request, reply) => {
    const embeddingsRequest = parseRequestBody(embeddingsRequestSchema, request.body, {}, ['model', 'input']);
    const call = startRoutedCall(request, context, embeddingsRequest.model, false);
    try {
      const answered = await attemptRouted(call, context, (model, { adapter, target }, signal) => {
        if (!adapter.embed) {
          throw new ApiError(
            400,
            `Model "${model}" cannot embed: providers of kind ${adapter.kind} have no embeddings API.`,
          );
        }
        return adapter.embed(embeddingsRequest, target, signal);
      });
      const { embeddings, usage: upstreamUsage } = answered.value;
      const usage: Usage = {
        prompt_tokens: upstreamUsage?.prompt_tokens ?? 0,
        completion_tokens: 0,
        total_tokens: upstreamUsage?.total_tokens ?? upstreamUsage?.prompt_tokens ?? 0,
      };
      call.recorder.markFirstToken();
      const priced = call.recorder.addCost(usage);
      call.recorder.record({ status: 200, finishReason: null, usage });
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
      return sendRoutedFailure(reply, call, context, error);
    }
  });
}
