// The shapes the bridge carries between main and the UI: conversations, messages, models, MCP servers, and the
// chat's event stream. Types only: no runtime code, so the renderer can import them for free.

import type { ContentPart, ModelPriceInfo, ReasoningDetail, ToolCall, Usage } from '../api/index.js';
import type { ToolMedia } from './tool-media.js';

export interface AppInfo {
  version: string;
  /** The gateway's base URL (ending in /api/v1), or null while it is not listening. */
  gatewayUrl: string | null;
}

export interface ModelOption {
  /** `<provider>/<model>`, as the gateway takes it. */
  id: string;
  name: string;
  provider: string;
  /** Whether image parts may be sent to it (the chat enables attachments only then). */
  acceptsImages: boolean;
  /** Whether PDFs may be sent to it as `file` parts: declared by the provider, or a family known to read them. */
  acceptsPdfs?: boolean;
  /** Known to call tools (no model list says; known families do). */
  callsTools?: boolean;
  /** Known to think before it answers (reasoning models). */
  reasons?: boolean;
  /** Tokens, when the provider lists it. */
  contextLength?: number | null;
  /** USD per million tokens, as requests are charged; null: unpriced. */
  price?: { input: number; output: number } | null;
}

/** Mirrors main/mcp's ServerSnapshot (main assigns one to the other, so the compiler keeps them in step). */
export interface McpServerStatus {
  name: string;
  state: 'disabled' | 'connecting' | 'connected' | 'disconnected' | 'needs-sign-in' | 'error';
  message?: string;
  warning?: string;
  transport?: 'stdio' | 'streamableHttp' | 'sse';
  toolCount: number;
  pid?: number;
  /** A remote server connected with a stored OAuth sign-in. */
  signedIn?: boolean;
}

/**
 * A question an MCP server asks the person during a tool call (elicitation, form mode): a message and a flat
 * JSON Schema of the fields to fill in. Answered with mcp:answer-elicitation; mcp:elicitation-ended withdraws it.
 */
export interface McpElicitation {
  id: string;
  server: string;
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
}

/** What the person filled in, by field: the value types the elicitation schema allows. */
export type McpElicitationContent = Record<string, string | number | boolean | string[]>;

/**
 * A server's request to call a model during a tool call (MCP sampling), for the person to approve (the server's
 * sampling approval is `ask`): what would be sent, to which model. Answered with mcp:answer-sampling;
 * mcp:sampling-ended withdraws it.
 */
export interface McpSamplingApproval {
  id: string;
  server: string;
  /** The model that would answer. */
  model: string;
  systemPrompt?: string;
  /** The conversation, images and audio named in brackets. */
  messages: { role: 'user' | 'assistant'; text: string }[];
  maxTokens: number;
}

/**
 * A tool call another MCP client made through the hub (`/mcp`, `switchyard mcp serve`): main/mcp records it,
 * main/store keeps it, Activity lists it. Never its arguments or result.
 */
export interface McpHubCall {
  /** Unix milliseconds, when the call started. */
  createdAt: number;
  /** The gateway key; null over stdio, which needs none. */
  keyId: string | null;
  keyName: string | null;
  /** The client's name from its `initialize` (`claude-ai`, `cursor-vscode`…), when it gave one. */
  client: string | null;
  server: string;
  tool: string;
  durationMs: number;
  /** The tool's error text, shortened; null when it succeeded. */
  error: string | null;
}

export interface Conversation {
  id: string;
  title: string;
  /** `<provider>/<model>`; null until one is chosen. */
  model: string | null;
  systemPrompt: string;
  /** null: the model's own default. */
  temperature: number | null;
  /** Unix milliseconds. */
  createdAt: number;
  updatedAt: number;
  // The rest of the settings (ChatSettings) and where it is listed. Main always sets them; a conversation made
  // elsewhere without them has the defaults (null, [], false).
  maxTokens?: number | null;
  topP?: number | null;
  seed?: number | null;
  stop?: string[];
  reasoningEffort?: ChatReasoningEffort | null;
  /** Listed first, under "Pinned". */
  pinned?: boolean;
  /** The folder it is listed in; null: none. */
  folderId?: string | null;
}

/** How hard a reasoning model thinks; null (in ChatSettings): the model's default. */
export type ChatReasoningEffort = 'low' | 'medium' | 'high';

/** How a conversation (or a preset) asks its model to answer. null: the model's own default. */
export interface ChatSettings {
  systemPrompt: string;
  temperature: number | null;
  /** The most tokens a reply may have (`max_tokens`). */
  maxTokens: number | null;
  topP: number | null;
  seed: number | null;
  /** Up to 4 sequences that end a reply; empty: none. */
  stop: string[];
  /** Sent only to models known to reason. */
  reasoningEffort: ChatReasoningEffort | null;
}

/** Named settings and model a new chat can start from; at most one is the default for new chats. */
export interface ChatPreset extends ChatSettings {
  id: string;
  name: string;
  /** `<provider>/<model>`; null: keep the model already chosen. */
  model: string | null;
  isDefault: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A folder of the conversation list. Deleting one keeps its conversations (they leave the folder). */
export interface ChatFolder {
  id: string;
  name: string;
  createdAt: number;
}

/**
 * - `streaming`: an assistant reply still arriving.
 * - `complete`: done normally (a tool message: the tool returned a result).
 * - `stopped`: the user pressed stop (a tool message: the call was cancelled).
 * - `error`: the reply or tool call failed; `error` says why (a tool message: the tool returned an error).
 * - `denied`: a tool message for a call the user denied.
 */
export type MessageStatus = 'streaming' | 'complete' | 'stopped' | 'error' | 'denied';

/** A tool call as the model made it, with the MCP server and tool it maps to (absent for an unknown name). */
export interface ChatToolCall extends ToolCall {
  mcp?: { server: string; tool: string };
}

export interface ChatMessage {
  id: string;
  conversationId: string;
  role: 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  toolCalls: ChatToolCall[] | null;
  /** On a tool message: the call it answers. */
  toolCallId: string | null;
  reasoning: string | null;
  reasoningDetails: ReasoningDetail[] | null;
  usage: Usage | null;
  /** USD, as the gateway reported it; null with `usage` set: the model has no price (the reply is unpriced). */
  cost: number | null;
  /** The model that wrote an assistant reply. */
  model: string | null;
  status: MessageStatus;
  error: string | null;
  createdAt: number;
  /** The message this one follows; null for the first. Messages with the same parent are versions of each other. */
  parentId: string | null;
  /** At a branch, the version with the highest is the one shown (raised when a version is written or chosen). */
  chosenOrder: number;
}

/** A tool call waiting for the user's decision. */
/**
 * What an MCP server says a tool does (its annotations `readOnlyHint`, `destructiveHint`, `openWorldHint`), for
 * the approval card: the server's claims, not guarantees; unset where it said nothing.
 */
export interface ToolHints {
  readOnly?: boolean;
  destructive?: boolean;
  openWorld?: boolean;
}

export interface PendingApproval {
  conversationId: string;
  /** The assistant message that made the call. */
  messageId: string;
  toolCallId: string;
  functionName: string;
  server: string;
  tool: string;
  /** The JSON arguments string as the model wrote it. */
  arguments: string;
  hints?: ToolHints;
}

export type ApprovalDecision = 'once' | 'always' | 'deny';

export interface ConversationDetail {
  conversation: Conversation;
  messages: ChatMessage[];
  pendingApprovals: PendingApproval[];
  /** A turn (the model and its tool calls) is in progress. */
  running: boolean;
  /** For each shown message that has other versions: the ids of all its versions, oldest first (absent: none has). */
  versions?: Record<string, string[]>;
}

/** Why a turn ended. */
export type TurnEnd = 'done' | 'stopped' | 'error' | 'step-limit';

/** Everything that happens in a running turn, in order. Names are noun-then-verb; all carry conversationId. */
export type ChatEvent =
  | { type: 'turn-start'; conversationId: string }
  | { type: 'message-start'; conversationId: string; message: ChatMessage }
  | { type: 'text-delta'; conversationId: string; messageId: string; text: string }
  | { type: 'reasoning-delta'; conversationId: string; messageId: string; text: string }
  | { type: 'tool-call'; conversationId: string; messageId: string; toolCall: ChatToolCall; autoApproved: boolean }
  | { type: 'approval-required'; conversationId: string; approval: PendingApproval }
  | { type: 'approval-resolved'; conversationId: string; toolCallId: string; decision: ApprovalDecision }
  | { type: 'tool-result'; conversationId: string; message: ChatMessage }
  | { type: 'usage'; conversationId: string; messageId: string; usage: Usage; cost: number | null }
  | { type: 'message-finish'; conversationId: string; message: ChatMessage }
  | { type: 'error'; conversationId: string; messageId: string | null; message: string }
  | { type: 'turn-finish'; conversationId: string; reason: TurnEnd };

export interface ConversationsChanged {
  conversationId: string;
  change: 'created' | 'updated' | 'deleted';
}

/** One model of one provider, with the price its requests are charged at (null: unpriced). */
export interface ProviderModel {
  /** `<provider>/<model>`. */
  id: string;
  name: string;
  contextLength: number | null;
  price: ModelPriceInfo | null;
}

/** Mirrors main/mcp's SettingsProblem. */
export interface McpSettingsProblem {
  /** e.g. `mcpServers.fs.timeout`, or `mcp_settings.json` for the whole file. */
  path: string;
  server?: string;
  message: string;
  /** `error`: the entry is not used (and the UI does not save it). `warning`: used with a corrected value. */
  severity: 'error' | 'warning';
}

/**
 * One server of the settings file as written, for the form. Values (env, headers) come as they are: the file is
 * the user's own, on their own machine, and the form has to show them to edit them (masked until revealed).
 */
export interface McpEditableServer {
  name: string;
  /** null when the entry is not an object. */
  entry: Record<string, unknown> | null;
  problems: McpSettingsProblem[];
  /** The entry names a client registered by hand (`oauth.clientId`) and its secret is in the keychain. */
  clientSecretSet?: boolean;
}

export interface McpSettingsDocument {
  path: string;
  /** The file as it is, for the raw editor. */
  text: string;
  servers: McpEditableServer[];
  problems: McpSettingsProblem[];
  /** The `${secret:NAME}` values the file references, masked: their values never reach the renderer. */
  secrets?: McpSecretHint[];
}

export interface McpSecretHint {
  name: string;
  /** The servers whose entries reference it. */
  servers: string[];
  /** `••••abcd` (the last four characters), or null when no value is stored. */
  masked: string | null;
}

export interface McpSettingsWrite {
  /** False when an error kept the change from being written; `problems` says where. */
  saved: boolean;
  problems: McpSettingsProblem[];
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  /** In the server's autoApprove list: the chat runs it without asking. */
  autoApprove: boolean;
  /** In the server's disabledTools list: neither the chat's model nor the MCP hub's clients see it. */
  disabled: boolean;
  /** What its definition costs in every request that offers it to a model (o200k tokens, an estimate). */
  schemaTokens: number;
  inputSchema: unknown;
}

export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export type McpResourceContent =
  | { uri: string; mimeType?: string; text: string }
  /** base64 */
  | { uri: string; mimeType?: string; blob: string };

export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  /** Every argument's value is text. */
  arguments: { name: string; description?: string; required: boolean }[];
}

/** A piece of a prompt's message: text, an image to show, or an embedded text resource. */
export type McpPromptContent =
  | { type: 'text'; text: string }
  | { type: 'image'; media: ToolMedia }
  | { type: 'resource'; uri: string; mimeType?: string; text: string };

export interface McpPromptMessages {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: McpPromptContent }[];
}

/** An MCP resource attached to a chat message: main reads it when the message is sent. */
export interface ResourceReference {
  server: string;
  uri: string;
}

export interface McpLogLine {
  /** `switchyard`: our own notes on the server's life (started, exited, restarting). */
  source: 'stderr' | 'stdout' | 'switchyard';
  text: string;
}

export interface McpToolOutcome {
  isError: boolean;
  /** The result as the chat would hand it to a model. */
  text: string;
  /** Its images and audio, to show as media (tool-media.ts says which). */
  media: ToolMedia[];
}

export interface McpImportReport {
  source: string;
  added: string[];
  replaced: string[];
  /** `conflict`: a different server of this name is configured; importing with `overwrite` replaces it. */
  skipped: { name: string; reason: string; conflict?: boolean }[];
  /** Values moved into the secret store, by where they were (`key`: the variable's or header's name). */
  movedSecrets?: { server: string; field: 'env' | 'headers'; key: string }[];
}

export interface CodeSnippet {
  id: string;
  label: string;
  language: string;
  code: string;
}

export interface GatewayInfo {
  listening: boolean;
  /** The interface's base, ending in /api/v1 (a request without `stream` streams); null while not listening. */
  baseUrl: string | null;
  /** The same API with OpenAI's defaults, ending in /v1: what OpenAI and OpenRouter SDKs and tools should use. */
  openAIBaseUrl: string | null;
  port: number | null;
  /** Ready to paste: curl and the openai SDKs, pointed at openAIBaseUrl. Empty while not listening. */
  snippets: CodeSnippet[];
}

/** One model's answer in a comparison (chat:compare): what has arrived, and how long it took. */
export interface CompareAnswer {
  model: string;
  status: 'streaming' | 'complete' | 'stopped' | 'error';
  text: string;
  reasoning: string;
  usage: Usage | null;
  /** USD; null with usage set: the model has no price ("unpriced"). */
  cost: number | null;
  error: string | null;
  /** Milliseconds from the request to the first text or reasoning; null until then. */
  firstTokenMs: number | null;
  /** Milliseconds from the request to the end of the answer; null while it streams. */
  totalMs: number | null;
}

/** A conversation's latest comparison as it stands (chat:compare-get), for a screen that opens it mid-way. */
export interface CompareSnapshot {
  conversationId: string;
  compareId: string;
  text: string;
  columns: CompareAnswer[];
}

/** A comparison's progress, column by column (a column is one model). All carry conversationId and compareId. */
export type CompareEvent =
  | { type: 'compare-start'; conversationId: string; compareId: string; text: string; models: string[] }
  | {
      type: 'column-delta';
      conversationId: string;
      compareId: string;
      column: number;
      text: string;
      reasoning: string;
      /** The column's time to first token, on its first delta. */
      firstTokenMs?: number;
    }
  | { type: 'column-finish'; conversationId: string; compareId: string; column: number; answer: CompareAnswer }
  | { type: 'compare-finish'; conversationId: string; compareId: string };
