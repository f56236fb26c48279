// POST {base}/embeddings on an OpenAI-compatible server (OpenAI, OpenRouter, Ollama, LM Studio…): the request goes
// as the caller sent it, with the upstream's model name; the answer is read leniently.

import { z } from 'zod';
import type { EmbeddingsRequest } from '../../../shared/api/index.js';
import type { AdapterEmbeddings } from '../adapter.js';

const count = z.number().nonnegative().nullish();

export const upstreamEmbeddingsSchema = z.looseObject({
  data: z.array(
    z.looseObject({ index: z.number().int().nullish(), embedding: z.union([z.array(z.number()), z.string()]) }),
  ),
  usage: z.looseObject({ prompt_tokens: count, total_tokens: count }).nullish(),
});

export function buildEmbeddingsBody(request: EmbeddingsRequest, upstreamModel: string): Record<string, unknown> {
  return { ...request, model: upstreamModel };
}

export function convertEmbeddings(answer: z.output<typeof upstreamEmbeddingsSchema>): AdapterEmbeddings {
  const embeddings = answer.data.map((item, position) => ({
    index: item.index ?? position,
    embedding: item.embedding,
  }));
  embeddings.sort((a, b) => a.index - b.index);
  const usage = answer.usage;
  return {
    embeddings,
    usage:
      usage && usage.prompt_tokens != null
        ? { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens ?? usage.prompt_tokens }
        : null,
  };
}
