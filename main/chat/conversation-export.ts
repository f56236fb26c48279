// A conversation as a file, and back. Markdown is for reading: the title, the model, and the conversation as it is
// shown, with tool calls and their results as fenced blocks. JSON is everything — the settings, every version of
// every message (the tree, conversation-tree.ts), tool calls, usage and cost — and imports back as a new
// conversation identical to the one exported. Exporting that one again gives the same file except for
// `exportedAt`, the conversation's `updatedAt` (an import is the newest change) and the messages' ids (new ones,
// `parentId` following them). A file that is not such an export is refused with a message that says what is wrong.

import { z } from 'zod';
import { contentPartSchema, reasoningDetailSchema, toolCallSchema } from '../../shared/api/chat-request.js';
import { resourceOfPart } from '../../shared/bridge/chat-message.js';
import { maxStopSequenceChars, maxStopSequences } from '../../shared/bridge/limits.js';
import type { ChatMessage, ChatSettings, Conversation } from '../../shared/bridge/types.js';
import { ChatError } from './chat-error.js';
import { settingsOf } from './chat-settings.js';
import { shownPath, versionsOnPath } from './conversation-tree.js';

export const conversationExportFormat = 'switchyard-conversation';
export const conversationExportVersion = 1;

const id = z.string().min(1).max(200);
const usageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  cost: z.number().optional(),
});
const messageSchema = z.strictObject({
  id,
  parentId: id.nullable(),
  chosenOrder: z.number().int().min(0),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]),
  toolCalls: z
    .array(toolCallSchema.extend({ mcp: z.strictObject({ server: z.string(), tool: z.string() }).optional() }))
    .nullable(),
  toolCallId: z.string().nullable(),
  reasoning: z.string().nullable(),
  reasoningDetails: z.array(reasoningDetailSchema).nullable(),
  usage: usageSchema.nullable(),
  cost: z.number().nullable(),
  model: z.string().nullable(),
  status: z.enum(['streaming', 'complete', 'stopped', 'error', 'denied']),
  error: z.string().nullable(),
  createdAt: z.number(),
});

/** The JSON export, checked as an import reads it. */
export const conversationExportSchema = z.strictObject({
  format: z.literal(conversationExportFormat),
  version: z.literal(conversationExportVersion),
  exportedAt: z.number(),
  conversation: z.strictObject({
    title: z.string().trim().min(1).max(200),
    model: z.string().max(300).nullable(),
    systemPrompt: z.string(),
    temperature: z.number().min(0).max(2).nullable(),
    // The other settings (ChatSettings); absent in a file from before they existed: the model's defaults.
    maxTokens: z.int().min(1).nullable().optional(),
    topP: z.number().min(0).max(1).nullable().optional(),
    seed: z.int().nullable().optional(),
    stop: z.array(z.string().min(1).max(maxStopSequenceChars)).max(maxStopSequences).optional(),
    reasoningEffort: z.enum(['low', 'medium', 'high']).nullable().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
  messages: z.array(messageSchema).max(100_000),
});
/**
 * What the schema checks, in the chat's own types (a stored message without its conversation's id): the schema's
 * inferred types are the same shapes, only looser where the chat's types name each field.
 */
export interface ConversationExport {
  format: typeof conversationExportFormat;
  version: typeof conversationExportVersion;
  exportedAt: number;
  conversation: Pick<Conversation, 'title' | 'model' | 'createdAt' | 'updatedAt'> & Partial<ChatSettings>;
  messages: Omit<ChatMessage, 'conversationId'>[];
}

export type ExportFormat = 'markdown' | 'json';

export interface ExportedFile {
  fileName: string;
  mimeType: string;
  text: string;
}

/** `stored`: every message of the conversation, oldest first (as the store lists them). */
export function exportConversation(
  conversation: Conversation,
  stored: readonly ChatMessage[],
  format: ExportFormat,
  now: number,
): ExportedFile {
  if (format === 'markdown') {
    return {
      fileName: `${fileStem(conversation.title)}.md`,
      mimeType: 'text/markdown',
      text: conversationMarkdown(conversation, stored),
    };
  }
  return {
    fileName: `${fileStem(conversation.title)}.json`,
    mimeType: 'application/json',
    text: `${JSON.stringify(conversationJson(conversation, stored, now), null, 2)}\n`,
  };
}

export function conversationJson(
  conversation: Conversation,
  stored: readonly ChatMessage[],
  now: number,
): ConversationExport {
  const { title, model, createdAt, updatedAt } = conversation;
  return {
    format: conversationExportFormat,
    version: conversationExportVersion,
    exportedAt: now,
    conversation: { title, model, ...settingsOf(conversation), createdAt, updatedAt },
    messages: stored.map((message) => ({
      id: message.id,
      parentId: message.parentId,
      chosenOrder: message.chosenOrder,
      role: message.role,
      content: message.content,
      toolCalls: message.toolCalls,
      toolCallId: message.toolCallId,
      reasoning: message.reasoning,
      reasoningDetails: message.reasoningDetails,
      usage: message.usage,
      cost: message.cost,
      model: message.model,
      status: message.status,
      error: message.error,
      createdAt: message.createdAt,
    })),
  };
}

/** The file's text as an export; a ChatError that says what is wrong otherwise. */
export function parseConversationExport(text: string): ConversationExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ChatError('invalid-request', 'This file is not JSON: choose a conversation exported as JSON.');
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (typeof json !== 'object' || json === null || format !== conversationExportFormat) {
    throw new ChatError('invalid-request', 'This file is not a conversation exported from Switchyard.');
  }
  const parsed = conversationExportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ChatError('invalid-request', `This conversation file is damaged${where}: ${issue.message}.`);
  }
  const exported = parsed.data as ConversationExport;
  const seen = new Set<string>();
  for (const [index, message] of exported.messages.entries()) {
    if (seen.has(message.id)) {
      throw new ChatError('invalid-request', `This conversation file is damaged: message ${index + 1} repeats an id.`);
    }
    // Every message follows one written before it: the file is a tree, without loops.
    if (message.parentId !== null && !seen.has(message.parentId)) {
      throw new ChatError(
        'invalid-request',
        `This conversation file is damaged: message ${index + 1} follows a message that is not before it.`,
      );
    }
    seen.add(message.id);
  }
  return exported;
}

/** The export as a new conversation: new ids (the tree kept), `now` as its latest change. */
export function importedConversation(
  exported: ConversationExport,
  options: { newId: () => string; now: number },
): { conversation: Conversation; messages: ChatMessage[] } {
  const { title, model, createdAt } = exported.conversation;
  const conversation: Conversation = {
    id: options.newId(),
    title,
    model,
    ...settingsOf(exported.conversation),
    pinned: false,
    folderId: null,
    createdAt,
    updatedAt: options.now,
  };
  const ids = new Map(exported.messages.map((message) => [message.id, options.newId()]));
  const messages = exported.messages.map((message): ChatMessage => ({
    ...message,
    id: ids.get(message.id)!,
    conversationId: conversation.id,
    parentId: message.parentId === null ? null : ids.get(message.parentId)!,
    // A reply exported while it was being written is as far as it got.
    status: message.status === 'streaming' ? 'stopped' : message.status,
  }));
  return { conversation, messages };
}

/** The conversation as it is shown, for reading. */
export function conversationMarkdown(conversation: Conversation, stored: readonly ChatMessage[]): string {
  const path = shownPath(stored);
  const lines = [`# ${conversation.title}`, ''];
  const settings = [`Model: ${conversation.model ?? 'none'}`];
  const { temperature, maxTokens, topP, seed, stop, reasoningEffort } = settingsOf(conversation);
  if (temperature !== null) settings.push(`temperature ${temperature}`);
  if (maxTokens !== null) settings.push(`max tokens ${maxTokens}`);
  if (topP !== null) settings.push(`top_p ${topP}`);
  if (seed !== null) settings.push(`seed ${seed}`);
  if (stop.length > 0) settings.push(`stop ${stop.map((sequence) => JSON.stringify(sequence)).join(', ')}`);
  if (reasoningEffort !== null) settings.push(`reasoning effort ${reasoningEffort}`);
  lines.push(settings.join(' · '), '');
  if (Object.keys(versionsOnPath(stored, path)).length > 0) {
    lines.push('Some messages have other versions; this is the one shown. The JSON export has them all.', '');
  }
  if (conversation.systemPrompt.trim() !== '') lines.push('## System prompt', '', conversation.systemPrompt, '');
  for (const [at, message] of path.entries()) {
    if (message.role === 'tool') continue; // under the call it answers
    lines.push(message.role === 'user' ? '## You' : `## Assistant${message.model ? ` (${message.model})` : ''}`, '');
    if (message.reasoning) lines.push('### Reasoning', '', quoted(message.reasoning), '');
    const text = markdownOfContent(message.content);
    if (text !== '') lines.push(text, '');
    for (const call of message.toolCalls ?? []) {
      const name = call.mcp ? `${call.mcp.server} / ${call.mcp.tool}` : call.function.name;
      lines.push(`### Tool call: ${name}`, '', fenced(prettyJson(call.function.arguments), 'json'), '');
      const result = path.slice(at + 1).find((later) => later.role === 'tool' && later.toolCallId === call.id);
      if (result) {
        lines.push(`### Result (${result.status})`, '', fenced(markdownOfContent(result.content, false), ''), '');
      }
    }
    if (message.status === 'stopped') lines.push('_Stopped._', '');
    if (message.status === 'error') lines.push(`_Failed: ${message.error ?? 'the reply failed'}_`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The text of a message; what is not text as a note (in italics, unless it goes in a code fence). */
function markdownOfContent(content: ChatMessage['content'], italic = true): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  const note = (text: string) => (italic ? `_${text}_` : text);
  return content
    .map((part) => {
      const resource = resourceOfPart(part);
      if (resource) return note(`Attached resource ${resource.uri} (${resource.server})`);
      if (part.type === 'text') return part.text;
      if (part.type === 'image_url') return note('[image]');
      if (part.type === 'file') return note(`[file ${part.file.filename ?? ''}]`);
      if (part.type === 'input_audio') return note(`[audio, ${part.input_audio.format}]`);
      return part.refusal;
    })
    .join('\n\n');
}

/** `text` in a code fence longer than any run of backticks inside it. */
function fenced(text: string, language: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A file name from the title: letters, digits and dashes, never empty. */
function fileStem(title: string): string {
  const stem = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return stem === '' ? 'conversation' : stem;
}
