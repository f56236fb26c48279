// A chat message as both sides first build it: what is given, every other field empty (null).

import type { ContentPart } from '../api/index.js';
import type { ChatMessage, ChatSettings, CompareAnswer } from './types.js';

/** The gateway key the app's chat makes for itself (main/chat/chat-key.ts), explained where Keys lists it. */
export const chatKeyName = 'Switchyard Chat';

/** A chat's settings before it has any: every one the model's default. */
export const defaultChatSettings: ChatSettings = {
  systemPrompt: '',
  temperature: null,
  maxTokens: null,
  topP: null,
  seed: null,
  stop: [],
  reasoningEffort: null,
};

/** Settings as a conversation or a request may hold them: any may be missing, or null for the model's default. */
export type GivenChatSettings = { [Setting in keyof ChatSettings]?: ChatSettings[Setting] | null };

/** Every setting, the default (defaultChatSettings) for those not given: main's and the screen's reading alike. */
export function settingsOf(fields: GivenChatSettings): ChatSettings {
  return {
    systemPrompt: fields.systemPrompt ?? defaultChatSettings.systemPrompt,
    temperature: fields.temperature ?? defaultChatSettings.temperature,
    maxTokens: fields.maxTokens ?? defaultChatSettings.maxTokens,
    topP: fields.topP ?? defaultChatSettings.topP,
    seed: fields.seed ?? defaultChatSettings.seed,
    stop: fields.stop ?? defaultChatSettings.stop,
    reasoningEffort: fields.reasoningEffort ?? defaultChatSettings.reasoningEffort,
  };
}

type RequiredFields = 'id' | 'conversationId' | 'role' | 'status' | 'createdAt';

export function newChatMessage(fields: Pick<ChatMessage, RequiredFields> & Partial<ChatMessage>): ChatMessage {
  return {
    content: null,
    toolCalls: null,
    toolCallId: null,
    reasoning: null,
    reasoningDetails: null,
    usage: null,
    cost: null,
    model: null,
    error: null,
    parentId: null,
    chosenOrder: 0,
    ...fields,
  };
}

/** A compared model's answer before anything of it has arrived (main's and the screen's starting point alike). */
export function newCompareAnswer(model: string): CompareAnswer {
  return {
    model,
    status: 'streaming',
    text: '',
    reasoning: '',
    usage: null,
    cost: null,
    error: null,
    firstTokenMs: null,
    totalMs: null,
  };
}

/**
 * The chat's error when the gateway refuses a request for lack of credits. It names what to do in the app (not
 * the CLI's `credits add`), and the UI offers that action beside it.
 */
export const noCreditsError =
  'No credits left: add credits on the Activity screen, or remove the balance there to make spending unlimited.';

/** An MCP resource attached to a message of the user's, as the text part that carries it. */
export interface AttachedResource {
  server: string;
  uri: string;
  mimeType?: string;
}

/**
 * The text part of an attached text resource: the model reads a line naming it, then its text; the `resource`
 * field (left out of what is sent, see main/chat/request-messages.ts) lets the UI show it as an attachment.
 */
export function resourceTextPart(resource: AttachedResource, text: string): ContentPart {
  const type = resource.mimeType ? ` (${resource.mimeType})` : '';
  return { type: 'text', text: `Attached resource ${resource.uri}${type}:\n\n${text}`, resource };
}

/** The resource a text part carries, or null for the user's own text and every other part. */
export function resourceOfPart(part: ContentPart): AttachedResource | null {
  if (part.type !== 'text' || typeof part.resource !== 'object' || part.resource === null) return null;
  const { server, uri, mimeType } = part.resource as Record<string, unknown>;
  if (typeof server !== 'string' || typeof uri !== 'string') return null;
  return { server, uri, ...(typeof mimeType === 'string' ? { mimeType } : {}) };
}

/**
 * The stored tool message of each call of the reply at `at`, by position: results follow their reply, and the
 * n-th call with a given id takes the n-th result with that id.
 */
export function resultsOf(
  calls: readonly { id: string }[],
  history: readonly ChatMessage[],
  at: number,
): (ChatMessage | undefined)[] {
  const end = history.findIndex((message, index) => index > at && message.role !== 'tool');
  const following = history.slice(at + 1, end === -1 ? undefined : end);
  const used = new Set<ChatMessage>();
  return calls.map((call) => {
    const result = following.find((message) => message.toolCallId === call.id && !used.has(message));
    if (result) used.add(result);
    return result;
  });
}

/** A text or code file from the user's disk, attached to a message. */
export interface AttachedTextFile {
  name: string;
  /** Characters of its text. */
  chars: number;
}

/**
 * The text part of an attached text file: a line naming it, then its text in a fenced block (a fence longer than
 * any run of backticks inside, so the file cannot close it). The `textFile` field, left out of what is sent, lets
 * the UI show it as an attachment.
 */
export function textFilePart(name: string, text: string): ContentPart {
  const longestRun = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const language = /\.([a-z0-9+#-]{1,12})$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const textFile: AttachedTextFile = { name, chars: text.length };
  return { type: 'text', text: `Attached file ${name}:\n\n${fence}${language}\n${text}\n${fence}`, textFile };
}

/** The text file a text part carries, or null for every other part. */
export function textFileOfPart(part: ContentPart): AttachedTextFile | null {
  if (part.type !== 'text' || typeof part.textFile !== 'object' || part.textFile === null) return null;
  const { name, chars } = part.textFile as Record<string, unknown>;
  if (typeof name !== 'string' || typeof chars !== 'number') return null;
  return { name, chars };
}

/** The inlined text of an attached text file, without the line and fence around it. */
export function textFileText(part: ContentPart): string {
  if (part.type !== 'text') return '';
  const body = part.text.slice(part.text.indexOf('\n\n') + 2);
  return body.slice(body.indexOf('\n') + 1, body.lastIndexOf('\n'));
}

/** A part the app added to the user's text: an attached MCP resource or text file (kept when the text is edited). */
export function isAttachedTextPart(part: ContentPart): boolean {
  return resourceOfPart(part) !== null || textFileOfPart(part) !== null;
}
