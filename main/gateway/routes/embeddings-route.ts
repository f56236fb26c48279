// POST {base}/embeddings in OpenAI's shape (string, strings or token ids; `dimensions`; `encoding_format`), routed
// like chat through the pipeline: `<provider>/<model>`, the key's rules, credits and rate limits, retries of the
// same model, a usage row with cost. OpenAI-compatible providers embed natively, Gemini through
// batchEmbedContents; a kind without an embeddings API (Anthropic) is a 400 that says so.

import type { FastifyInstance } from 'fastify';
import {
  ApiError,
  embeddingsRequestSchema,
  type EmbeddingsRequest,
  type EmbeddingsResponse,
  type Usage,
} from '../../../shared/api/index.js';
import type { AdapterEmbeddings } from '../../providers/index.js';
import type { ApiBase } from '../http/api-bases.js';
import { callerOf } from '../http/caller.js';
import { sendOutcome } from '../http/reply.js';
import { parseRequestBody } from '../http/validate-chat-request.js';
import { streamContextOf, type RequestContext } from '../pipeline/context.js';
import type { AttemptCall, Generation } from '../pipeline/generation.js';
import { admitGeneration, startGeneration } from '../pipeline/start-generation.js';
import type { Answered } from '../pipeline/upstream-attempts.js';
import { answerWith } from '../pipeline/whole-answer.js';

const embed: AttemptCall<AdapterEmbeddings, EmbeddingsRequest> = ({ adapter, target }, request, signal) => {
  if (!adapter.embed) {
    throw new ApiError(
      400,
      `Model "${request.model}" cannot embed: providers of kind ${adapter.kind} have no embeddings API.`,
    );
  }
  return adapter.embed(request, target, signal);
};

/** The answer in OpenAI's shape, its usage priced; the usage row is written. */
function embeddingsOf(
  generation: Generation<EmbeddingsRequest>,
  answered: Answered<AdapterEmbeddings>,
): EmbeddingsResponse {
  const { embeddings, usage: upstreamUsage } = answered.value;
  const usage: Usage = {
    prompt_tokens: upstreamUsage?.prompt_tokens ?? 0,
    completion_tokens: 0,
    total_tokens: upstreamUsage?.total_tokens ?? upstreamUsage?.prompt_tokens ?? 0,
  };
  const priced = generation.recorder.addCost(usage);
  generation.recorder.record({ status: 200, finishReason: null, usage });
  return {
    object: 'list',
    data: embeddings.map(({ index, embedding }) => ({ object: 'embedding', index, embedding })),
    model: answered.model,
    usage: {
      prompt_tokens: priced.prompt_tokens,
      total_tokens: priced.total_tokens,
      ...(priced.cost !== undefined ? { cost: priced.cost } : {}),
    },
  };
}

export function registerEmbeddingsRoute(server: FastifyInstance, base: ApiBase, context: RequestContext): void {
  const generationContext = streamContextOf(context);
  server.post(`${base.prefix}/embeddings`, async (request, reply) => {
    const embeddingsRequest = parseRequestBody(embeddingsRequestSchema, request.body, {}, ['model', 'input']);
    const generation = startGeneration(callerOf(request, context.inFlight), embeddingsRequest, context);
    const outcome =
      (await admitGeneration(generation, context)) ??
      (await answerWith(generation, generationContext, embed, (answered) => embeddingsOf(generation, answered)));
    return sendOutcome(reply, outcome);
  });
}
