// POST /completions, OpenAI's legacy text completions (fill-in-the-middle for editors): only what the gateway needs
// is checked; everything else goes to the OpenAI-compatible upstream as sent.

import { z } from 'zod';

export const legacyCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.union([z.string(), z.array(z.string()), z.array(z.int()), z.array(z.array(z.int()))], {
    error: 'must be a string, an array of strings, an array of token ids, or an array of token-id arrays',
  }),
  suffix: z.string().optional(),
  stream: z.boolean().default(false),
  max_tokens: z.int().positive().optional(),
});
export type LegacyCompletionRequest = z.output<typeof legacyCompletionRequestSchema>;
