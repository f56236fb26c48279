// POST /embeddings in OpenAI's shape: the request schema (types derived from it) and the answer.

import { z } from 'zod';

export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union(
    [
      z.string(),
      z.array(z.string()).min(1),
      z.array(z.int().min(0)).min(1),
      z.array(z.array(z.int().min(0)).min(1)).min(1),
    ],
    { error: 'must be a string, an array of strings, an array of token ids, or an array of token-id arrays' },
  ),
  dimensions: z.int().positive().optional(),
  encoding_format: z.enum(['float', 'base64']).optional(),
  user: z.string().optional(),
});
export type EmbeddingsRequest = z.output<typeof embeddingsRequestSchema>;

export interface Embedding {
  object: 'embedding';
  index: number;
  /** Floats, or (encoding_format base64) the little-endian float32 bytes in base64. */
  embedding: number[] | string;
}

export interface EmbeddingsResponse {
  object: 'list';
  data: Embedding[];
  /** `<provider>/<model>`. */
  model: string;
  usage: { prompt_tokens: number; total_tokens: number; cost?: number };
}

/** Floats as OpenAI's `encoding_format: "base64"` sends them: little-endian float32, base64. */
export function floatsToBase64(values: readonly number[]): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
