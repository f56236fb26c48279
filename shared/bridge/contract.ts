// THE bridge contract: every channel the UI can invoke and every event main pushes, in one place. Main validates
// each request with these zod schemas (main/bridge); the preload and the browser transport are generic over it,
// so adding a channel is one entry here plus its handler in main/bridge/handlers (the compiler asks for it).
// Channel names are `area:verb`. Requests are validated strictly; responses and events are produced by main
// itself, so they carry a type only (`returns<T>()`), no runtime schema.

import { z } from 'zod';
import {
  acceptedImageTypes,
  maxImageBytes,
  maxImagesPerMessage,
  maxMessageChars,
  maxSystemPromptChars,
  maxTitleChars,
} from './limits.js';
import type {
  AppInfo,
  ChatEvent,
  ChatMessage,
  Conversation,
  ConversationDetail,
  ConversationsChanged,
  McpServerStatus,
  ModelOption,
} from './types.js';

/** A type with no runtime schema: for what main produces itself. */
export interface Returns<T> {
  readonly __returns?: T;
}
export function returns<T>(): Returns<T> {
  return {};
}

const noRequest = z.strictObject({});
const id = z.string().min(1).max(100);
const modelId = z
  .string()
  .regex(/^[^/\s]+\/\S+$/, 'must be "<provider>/<model>"')
  .max(300);
const temperature = z.number().min(0).max(2);
const imageDataUrl = z
  .string()
  .max(Math.ceil((maxImageBytes * 4) / 3) + 100, `an image may be at most ${maxImageBytes / 1024 / 1024} MiB`)
  .refine(
    (url) => acceptedImageTypes.some((type) => url.startsWith(`data:${type};base64,`)),
    `must be a base64 data URL of ${acceptedImageTypes.join(', ')}`,
  );

export const bridgeContract = {
  'app:info': { request: noRequest, response: returns<AppInfo>() },

  'models:list': { request: noRequest, response: returns<{ models: ModelOption[] }>() },

  'mcp:list-servers': { request: noRequest, response: returns<{ servers: McpServerStatus[] }>() },

  'chat:list-conversations': {
    request: z.strictObject({ query: z.string().max(200).optional() }),
    response: returns<{ conversations: Conversation[] }>(),
  },
  'chat:create-conversation': {
    request: z.strictObject({
      model: modelId.nullish(),
      systemPrompt: z.string().max(maxSystemPromptChars).optional(),
      temperature: temperature.nullish(),
    }),
    response: returns<{ conversation: Conversation }>(),
  },
  'chat:get-conversation': { request: z.strictObject({ id }), response: returns<ConversationDetail>() },
  'chat:rename-conversation': {
    request: z.strictObject({ id, title: z.string().trim().min(1).max(maxTitleChars) }),
    response: returns<{ conversation: Conversation }>(),
  },
  'chat:delete-conversation': {
    request: z.strictObject({ id }),
    response: returns<{ deleted: boolean }>(),
  },
  'chat:update-conversation': {
    request: z.strictObject({
      id,
      model: modelId.nullish(),
      systemPrompt: z.string().max(maxSystemPromptChars).optional(),
      temperature: temperature.nullish(),
    }),
    response: returns<{ conversation: Conversation }>(),
  },
  'chat:send': {
    request: z
      .strictObject({
        conversationId: id,
        text: z.string().max(maxMessageChars),
        images: z.array(imageDataUrl).max(maxImagesPerMessage).default([]),
      })
      .refine((request) => request.text.trim() !== '' || request.images.length > 0, {
        error: 'a message needs text or an image',
        path: ['text'],
      }),
    response: returns<{ message: ChatMessage }>(),
  },
  'chat:stop': { request: z.strictObject({ conversationId: id }), response: returns<{ stopped: boolean }>() },
  'chat:resolve-approval': {
    request: z.strictObject({
      conversationId: id,
      toolCallId: z.string().min(1).max(200),
      decision: z.enum(['once', 'always', 'deny']),
    }),
    response: returns<{ resolved: boolean }>(),
  },
} as const satisfies Record<string, { request: z.ZodType; response: Returns<unknown> }>;

/** Every event main pushes to the UI, by name. */
export const bridgeEvents = {
  /** One conversation's running turn: deltas, tool calls, approvals, results, usage. */
  'chat:event': returns<ChatEvent>(),
  /** A conversation was created, renamed, changed or deleted: lists refresh. */
  'chat:conversations-changed': returns<ConversationsChanged>(),
  /** An MCP server's state changed. */
  'mcp:status': returns<McpServerStatus>(),
} as const satisfies Record<string, Returns<unknown>>;

export type BridgeContract = typeof bridgeContract;
export type BridgeChannel = keyof BridgeContract;
/** What the UI sends (fields with defaults may be left out). */
export type BridgeRequest<C extends BridgeChannel> = z.input<BridgeContract[C]['request']>;
/** What a handler receives after validation (defaults filled in). */
export type BridgeParsedRequest<C extends BridgeChannel> = z.output<BridgeContract[C]['request']>;
export type BridgeResponse<C extends BridgeChannel> =
  BridgeContract[C]['response'] extends Returns<infer T> ? T : never;

export type BridgeEvents = typeof bridgeEvents;
export type BridgeEventName = keyof BridgeEvents;
export type BridgeEventPayload<E extends BridgeEventName> = BridgeEvents[E] extends Returns<infer T> ? T : never;

export const bridgeChannelNames = Object.keys(bridgeContract) as BridgeChannel[];
export const bridgeEventNames = Object.keys(bridgeEvents) as BridgeEventName[];

/**
 * The shape of every channel and event name. The sandboxed preload cannot import this module, so it checks names
 * against this pattern (repeated there, with a test keeping the two equal) and main rejects unknown ones.
 */
export const bridgeNamePattern = /^[a-z]+(?:-[a-z]+)*:[a-z]+(?:-[a-z]+)*$/;

export function isBridgeChannel(name: string): name is BridgeChannel {
  return Object.hasOwn(bridgeContract, name);
}
