// Minimal, lenient schemas of what OpenAI-compatible servers send. Unknown fields are tolerated and nulls are
// accepted everywhere: servers differ, and a new field must never break a response.

import { z } from 'zod';
import type { ChoiceLogprobs } from '../../../shared/api/index.js';
import { tokenCount, tokenCountsSchema } from '../common/index.js';

export const upstreamUsageSchema = z.looseObject({
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  total_tokens: tokenCount,
  prompt_tokens_details: tokenCountsSchema('cached_tokens', 'cache_write_tokens').nullish(),
  completion_tokens_details: tokenCountsSchema('reasoning_tokens').nullish(),
  cost: z.number().nullish(),
});
export type UpstreamUsage = z.infer<typeof upstreamUsageSchema>;

const reasoningDetailsSchema = z.array(z.looseObject({ type: z.string() })).nullish();

/**
 * Content as a string or, from Mistral's reasoning models, an array of parts: `{type: "text", text}` and
 * `{type: "thinking", thinking: [{type: "text", text}]}`. Parts of other types are tolerated (and ignored).
 */
const textPartSchema = z.looseObject({ type: z.string(), text: z.string().nullish() });
const contentSchema = z
  .union([
    z.string(),
    z.array(
      z.looseObject({
        type: z.string(),
        text: z.string().nullish(),
        thinking: z.union([z.string(), z.array(textPartSchema)]).nullish(),
      }),
    ),
  ])
  .nullish();
export type UpstreamContent = z.infer<typeof contentSchema>;

/** What a streamed delta and a whole message both carry besides tool calls. */
const messageTextFields = {
  content: contentSchema,
  refusal: z.string().nullish(),
  reasoning: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  reasoning_details: reasoningDetailsSchema,
};

/** Ollama and a few others send `arguments` as an object instead of a JSON string. */
const toolArgumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();

export const upstreamToolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: toolArgumentsSchema }).nullish(),
});
export type UpstreamToolCallDelta = z.infer<typeof upstreamToolCallDeltaSchema>;

export const upstreamChunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().int().nonnegative().nullish(),
        delta: z
          .looseObject({ ...messageTextFields, tool_calls: z.array(upstreamToolCallDeltaSchema).nullish() })
          .nullish(),
        finish_reason: z.string().nullish(),
        native_finish_reason: z.string().nullish(),
        /** Passed on as sent (OpenAI's ChoiceLogprobs): the gateway reads nothing in it. */
        logprobs: z.custom<ChoiceLogprobs>((value) => value === null || typeof value === 'object').nullish(),
      }),
    )
    .nullish(),
  usage: upstreamUsageSchema.nullish(),
  error: z.unknown().optional(),
});
export type UpstreamChunk = z.infer<typeof upstreamChunkSchema>;

export const upstreamCompletionSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      index: z.number().int().nonnegative().nullish(),
      message: z.looseObject({
        ...messageTextFields,
        tool_calls: z
          .array(
            z.looseObject({
              id: z.string().nullish(),
              type: z.string().nullish(),
              function: z.looseObject({ name: z.string().nullish(), arguments: toolArgumentsSchema }),
            }),
          )
          .nullish(),
      }),
      finish_reason: z.string().nullish(),
      native_finish_reason: z.string().nullish(),
      logprobs: z.unknown().optional(),
    }),
  ),
  usage: upstreamUsageSchema.nullish(),
  system_fingerprint: z.string().nullish(),
});
export type UpstreamCompletion = z.infer<typeof upstreamCompletionSchema>;

export const upstreamModelListSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string().nullish(),
      created: z.number().nullish(),
      owned_by: z.string().nullish(),
      context_length: z.number().nullish(),
      max_model_len: z.number().nullish(),
      architecture: z
        .looseObject({
          input_modalities: z.array(z.string()).nullish(),
          output_modalities: z.array(z.string()).nullish(),
        })
        .nullish(),
    }),
  ),
});
export type UpstreamModelList = z.infer<typeof upstreamModelListSchema>;
