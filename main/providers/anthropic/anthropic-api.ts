// The parts of the Anthropic Messages API (anthropic-version 2023-06-01) that Switchyard speaks. Request shapes are
// plain types (we build them); response shapes are lenient zod schemas (we parse them): unknown fields and new
// block or event types must never break a response.

import { z } from 'zod';
import { tokenCountsSchema } from '../common/index.js';

export const anthropicVersion = '2023-06-01';
/** The `format` of reasoning_details items that came from (and go back to) Anthropic. */
export const anthropicReasoningFormat = 'anthropic-claude-v1';

// ---- Request ----------------------------------------------------------------------------------------------------

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: unknown;
}

export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
  cache_control?: unknown;
}

/** A PDF (base64) or plain text the model reads as a document. */
export interface AnthropicDocumentBlock {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string };
  title?: string;
  cache_control?: unknown;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | AnthropicTextBlock[];
  cache_control?: unknown;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

/** Anthropic's web search, a tool its servers run (results come back as web_search_tool_result blocks). */
export interface AnthropicWebSearchTool {
  type: 'web_search_20250305';
  name: 'web_search';
  user_location?: { type: 'approximate'; city?: string; region?: string; country?: string; timezone?: string };
}

export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: AnthropicTextBlock[];
  tools?: (AnthropicTool | AnthropicWebSearchTool)[];
  tool_choice?: AnthropicToolChoice;
  thinking?: { type: 'enabled'; budget_tokens: number };
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: { user_id: string };
  /** Structured output (GA): the answer is JSON following the schema. */
  output_config?: { format: { type: 'json_schema'; schema: Record<string, unknown> } };
  stream?: boolean;
}

// ---- Responses --------------------------------------------------------------------------------------------------

export const anthropicUsageSchema = tokenCountsSchema(
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
).extend({ server_tool_use: tokenCountsSchema('web_search_requests').nullish() });
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/** A citation of a text block; web-search ones name the page (`web_search_result_location`). */
export const anthropicCitationSchema = z.looseObject({
  type: z.string(),
  url: z.string().nullish(),
  title: z.string().nullish(),
  cited_text: z.string().nullish(),
});
export type AnthropicCitation = z.infer<typeof anthropicCitationSchema>;

/** A content block of a whole message, or the `content_block` of a content_block_start event. */
export const anthropicBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  citations: z.array(anthropicCitationSchema).nullish(),
  thinking: z.string().nullish(),
  signature: z.string().nullish(),
  data: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
});
export type AnthropicBlock = z.infer<typeof anthropicBlockSchema>;

export const anthropicMessageSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.string().nullish(),
  content: z.array(anthropicBlockSchema),
  stop_reason: z.string().nullish(),
  usage: anthropicUsageSchema.nullish(),
});
export type AnthropicResponseMessage = z.infer<typeof anthropicMessageSchema>;

export const anthropicStreamEventSchemas = {
  message_start: z.looseObject({
    message: z.looseObject({ usage: anthropicUsageSchema.nullish() }),
  }),
  content_block_start: z.looseObject({
    index: z.number().int().nonnegative(),
    content_block: anthropicBlockSchema,
  }),
  content_block_delta: z.looseObject({
    index: z.number().int().nonnegative(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().nullish(),
      thinking: z.string().nullish(),
      signature: z.string().nullish(),
      partial_json: z.string().nullish(),
      citation: anthropicCitationSchema.nullish(),
    }),
  }),
  content_block_stop: z.looseObject({ index: z.number().int().nonnegative() }),
  message_delta: z.looseObject({
    delta: z.looseObject({ stop_reason: z.string().nullish() }).nullish(),
    usage: anthropicUsageSchema.nullish(),
  }),
} as const;

export const anthropicModelListSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string().min(1),
      display_name: z.string().nullish(),
      created_at: z.string().nullish(),
    }),
  ),
  has_more: z.boolean().nullish(),
  last_id: z.string().nullish(),
});
export type AnthropicModelList = z.infer<typeof anthropicModelListSchema>;
