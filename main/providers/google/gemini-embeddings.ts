// Embeddings through Gemini's models/{model}:batchEmbedContents: one request per input string, answered in order.
// Gemini embeds text only (token ids are a 400) and reports no token counts.

import { z } from 'zod';
import { ApiError, floatsToBase64, type EmbeddingsRequest } from '../../../shared/api/index.js';
import type { AdapterEmbeddings } from '../adapter.js';

export const geminiEmbeddingsSchema = z.looseObject({
  embeddings: z.array(z.looseObject({ values: z.array(z.number()) })),
});

export function buildGeminiEmbeddingsBody(request: EmbeddingsRequest, modelPath: string, modelLabel: string) {
  const inputs = typeof request.input === 'string' ? [request.input] : request.input;
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new ApiError(400, `Model "${modelLabel}" embeds text only: "input" must be a string or an array of strings.`);
  }
  return {
    requests: inputs.map((text) => ({
      model: modelPath,
      content: { parts: [{ text }] },
      ...(request.dimensions !== undefined ? { outputDimensionality: request.dimensions } : {}),
    })),
  };
}

export function convertGeminiEmbeddings(
  answer: z.output<typeof geminiEmbeddingsSchema>,
  encoding: EmbeddingsRequest['encoding_format'],
): AdapterEmbeddings {
  return {
    embeddings: answer.embeddings.map((item, index) => ({
      index,
      embedding: encoding === 'base64' ? floatsToBase64(item.values) : item.values,
    })),
    usage: null,
  };
}
