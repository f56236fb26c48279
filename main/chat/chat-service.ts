// The chat: conversations and the tool loop. A turn sends the conversation to the model through the gateway,
// streams the reply out as events, runs the tool calls it asks for (auto-approved ones at once, others after the
// user decides), feeds the results back as `tool` messages and goes on until the model stops, the user stops it,
// or the step cap is reached. Everything is persisted as it settles, so a reload or a restart shows the same.

import { randomUUID } from 'node:crypto';
import type { ContentPart } from '../../shared/api/index.js';
import { Emitter, type Event } from '../../shared/events/index.js';
import type {
  ApprovalDecision,
  ChatEvent,
  ChatMessage,
  ChatToolCall,
  Conversation,
  ConversationDetail,
  ConversationsChanged,
  ModelOption,
  PendingApproval,
  ResourceReference,
  TurnEnd,
} from '../../shared/bridge/types.js';
import { isAttachedTextPart, newChatMessage, resourceTextPart, resultsOf } from '../../shared/bridge/chat-message.js';
import { maxImageBytes, maxImagesPerMessage, maxResourceChars } from '../../shared/bridge/limits.js';
import { mediaDataUrl, showableMedia, toMediaPart } from '../../shared/bridge/tool-media.js';
import type { Logger } from '../common/index.js';
import type { ChatLibraryStore, ChatStore, ConversationChanges } from '../store/index.js';
import {
  checkAttachmentTotal,
  documentParts,
  documentRefusal,
  hasDocument,
  noAttachedFiles,
  textFileParts,
  type AttachedFiles,
} from './attached-files.js';
import { ChatError } from './chat-error.js';
import { ChatFolders } from './chat-folders.js';
import { requestSettings, settingsOf, type NewConversationFields } from './chat-settings.js';
import type { ChatTools, ResourceContent, ToolOutcome, ToolTarget } from './chat-tools.js';
import type { ChatGateway } from './gateway-client.js';
import {
  exportConversation,
  importedConversation,
  parseConversationExport,
  type ExportedFile,
  type ExportFormat,
} from './conversation-export.js';
import { nextChosenOrder, pathTo, shownPath, subtreeIds, versionsOnPath } from './conversation-tree.js';
import { ReplyAccumulator } from './reply-accumulator.js';
import { ChatPresets } from './presets.js';
import { replyCost } from './reply-cost.js';
import { toRequestMessages, uniqueCallIds } from './request-messages.js';

export const defaultMaxSteps = 10;
export const newConversationTitle = 'New chat';
export const deniedToolResult = 'The user denied this tool call.';
export const stoppedToolResult = 'The user stopped this tool call before it finished.';
const titleLength = 60;

export interface ChatServiceOptions {
  table: ChatStore;
  /** Presets, folders and where conversations are listed. */
  library: ChatLibraryStore;
  gateway: ChatGateway;
  tools: ChatTools;
  /** The models the picker offers (for the default model and the image check). */
  models: () => Promise<ModelOption[]>;
  /**
   * Whether the price book knows what `<provider>/<model>` costs. The gateway reports 0 for a model it cannot
   * price; the chat stores such a reply's cost as unknown (null) so that it reads "unpriced", not "$0.00".
   */
  isPriced?: (model: string) => boolean;
  logger: Logger;
  /** Model calls per turn before the loop gives up (each tool round is one more). Default 10. */
  maxSteps?: number;
  now?: () => number;
}

interface PendingDecision {
  approval: PendingApproval;
  decide(decision: ApprovalDecision): void;
}

interface Turn {
  controller: AbortController;
  approvals: Map<string, PendingDecision>;
  /** The reply being streamed, so that a reload mid-stream shows what arrived so far. */
  live: { messageId: string; reply: ReplyAccumulator } | null;
  /** The message the turn's next one follows: its history is the path to this one (conversation-tree.ts). */
  leafId: string;
  done: Promise<void>;
}

/** Abort reason of a turn the user stopped (or that the app's close ended). */
class TurnStopped extends Error {
  constructor() {
    super('The turn was stopped.');
    this.name = 'TurnStopped';
  }
}

export class ChatService {
  private readonly turns = new Map<string, Turn>();
  /** Conversations whose next turn is being written (preparingTurn): busy like a running turn. */
  private readonly preparing = new Set<string>();
  private readonly eventEmitter: Emitter<ChatEvent>;
  private readonly changeEmitter: Emitter<ConversationsChanged>;
  /** Every event of every turn (text deltas, tool calls, approvals), for the UI. */
  readonly onEvent: Event<ChatEvent>;
  readonly onConversationsChanged: Event<ConversationsChanged>;
  readonly presets: ChatPresets;
  readonly folders: ChatFolders;
  private readonly table: ChatStore;
  private readonly maxSteps: number;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: ChatServiceOptions) {
    this.table = options.table;
    this.maxSteps = Math.max(1, options.maxSteps ?? defaultMaxSteps);
    this.now = options.now ?? Date.now;
    this.eventEmitter = new Emitter({
      onListenerError: (error) => options.logger.error({ err: error }, 'a chat event listener failed'),
    });
    this.changeEmitter = new Emitter({
      onListenerError: (error) => options.logger.error({ err: error }, 'a conversation listener failed'),
    });
    this.onEvent = this.eventEmitter.event;
    this.onConversationsChanged = this.changeEmitter.event;
    this.presets = new ChatPresets(options.library, this.now);
    this.folders = new ChatFolders({
      library: options.library,
      table: options.table,
      now: this.now,
      changed: (conversationId) => this.changed(conversationId, 'updated'),
    });
  }

  listConversations(query?: string): Promise<Conversation[]> {
    return this.table.listConversations({ query });
  }

  /** Without a model, takes the one of the most recent conversation (the user's last choice). */
  async createConversation(fields: NewConversationFields = {}): Promise<Conversation> {
    const now = this.now();
    const conversation: Conversation = {
      id: randomUUID(),
      title: newConversationTitle,
      model: fields.model ?? (await this.table.listConversations({ limit: 1 }))[0]?.model ?? null,
      ...settingsOf(fields),
      createdAt: now,
      updatedAt: now,
      pinned: false,
      folderId: null,
    };
    await this.table.insertConversation(conversation);
    this.changed(conversation.id, 'created');
    return conversation;
  }

  async getConversation(id: string): Promise<ConversationDetail> {
    const conversation = await this.requireConversation(id);
    const turn = this.turns.get(id);
    const stored = await this.table.listMessages(id);
    const path = turn ? pathTo(stored, turn.leafId) : shownPath(stored);
    const messages = path.map((message) => {
      if (turn?.live?.messageId !== message.id) return message;
      const { reply } = turn.live;
      return { ...message, content: reply.text, reasoning: reply.reasoning || null };
    });
    const pendingApprovals = [...(turn?.approvals.values() ?? [])].map((pending) => pending.approval);
    const versions = versionsOnPath(stored, path);
    return { conversation, messages, pendingApprovals, running: turn !== undefined, versions };
  }

  /** The conversation as a Markdown or JSON file (conversation-export.ts). */
  async exportConversation(id: string, format: ExportFormat): Promise<ExportedFile> {
    const conversation = await this.requireConversation(id);
    return exportConversation(conversation, await this.table.listMessages(id), format, this.now());
  }

  /** A JSON export as a new conversation; a file that is not one is refused with what is wrong with it. */
  async importConversation(text: string): Promise<Conversation> {
    const exported = parseConversationExport(text);
    const { conversation, messages } = importedConversation(exported, { newId: randomUUID, now: this.now() });
    await this.table.insertConversation(conversation);
    try {
      for (const message of messages) await this.table.insertMessage(message);
    } catch (error) {
      await this.table.deleteConversation(conversation.id); // all or nothing: no half conversation stays
      throw error;
    }
    this.changed(conversation.id, 'created');
    return conversation;
  }

  /** Shows this version of its place in the conversation, with what followed it when it was last shown. */
  async showVersion(conversationId: string, messageId: string): Promise<ConversationDetail> {
    await this.requireIdle(conversationId);
    const stored = await this.table.listMessages(conversationId);
    this.requireMessageIndex(stored, messageId);
    const shown = new Set(shownPath(stored).map((message) => message.id));
    let order = nextChosenOrder(stored);
    for (const message of pathTo(stored, messageId)) {
      if (!shown.has(message.id)) await this.table.updateMessage(message.id, { chosenOrder: order++ });
    }
    return this.getConversation(conversationId);
  }

  renameConversation(id: string, title: string): Promise<Conversation> {
    return this.update(id, { title: title.trim() });
  }

  updateConversation(id: string, changes: Omit<ConversationChanges, 'title'>): Promise<Conversation> {
    return this.update(id, changes);
  }

  /** Stops its turn first, so nothing writes to it afterwards. */
  async deleteConversation(id: string): Promise<boolean> {
    await this.stop(id);
    const deleted = await this.table.deleteConversation(id);
    if (deleted) this.changed(id, 'deleted');
    return deleted;
  }

  /**
   * Stores the user's message and starts the turn; the reply arrives as events. Attached MCP resources are read
   * now: a text resource becomes a text part, an image one an image. Files from disk come as `files`.
   */
  async send(
    conversationId: string,
    text: string,
    images: readonly string[] = [],
    resources: readonly ResourceReference[] = [],
    files: AttachedFiles = noAttachedFiles,
  ): Promise<ChatMessage> {
    await this.requireReady(conversationId);
    const attached = await this.readAttachedResources(resources);
    const imageUrls = [...images, ...attached.images];
    const conversation = await this.requireReady(conversationId); // again: a turn may have started while reading
    if (imageUrls.length > 0) await this.checkImageInput(conversation.model!);
    if (imageUrls.length > maxImagesPerMessage) {
      throw new ChatError('invalid-request', `At most ${maxImagesPerMessage} images per message, resources included.`);
    }
    if (files.documents.length > 0) await this.checkDocumentInput(conversation.model!);
    checkAttachmentTotal(imageUrls, files);

    const attachments = [
      ...textFileParts(files),
      ...attached.texts,
      ...imageUrls.map((url) => ({ type: 'image_url', image_url: { url } }) satisfies ContentPart),
      ...documentParts(files),
    ];
    const content: ChatMessage['content'] =
      attachments.length === 0
        ? text
        : [...(text.trim() === '' ? [] : [{ type: 'text', text } satisfies ContentPart]), ...attachments];
    const stored = await this.table.listMessages(conversationId);
    const message = this.newMessage(conversationId, {
      role: 'user',
      content,
      status: 'complete',
      parentId: shownPath(stored).at(-1)?.id ?? null,
      chosenOrder: nextChosenOrder(stored),
    });
    const title =
      conversation.title === newConversationTitle && text.trim() !== '' ? titleFrom(text) : conversation.title;
    await this.preparingTurn(conversationId, message.id, async () => {
      await this.table.insertMessage(message);
      await this.update(conversationId, { title });
    });
    return message;
  }

  /**
   * Answers the user message before this reply again, with `model` when given (it becomes the conversation's
   * model): the new reply is a new version beside the first reply to that message, which stays. Answers the
   * conversation.
   */
  async regenerate(conversationId: string, messageId: string, model?: string): Promise<Conversation> {
    await this.stopIfAwaitingApproval(conversationId);
    const findQuestion = async () => {
      await this.requireIdle(conversationId);
      const messages = await this.shownMessages(conversationId, messageId);
      const at = this.requireMessageIndex(messages, messageId);
      if (messages[at]!.role !== 'assistant')
        throw new ChatError('invalid-request', 'Only a reply can be regenerated.');
      const question = messages.findLastIndex((message, index) => index < at && message.role === 'user');
      if (question < 0) throw new ChatError('invalid-request', 'This reply answers no message of yours.');
      return { messages, question };
    };
    const asked = await findQuestion();
    if (model && asked.messages.slice(0, asked.question + 1).some(hasImage)) await this.checkImageInput(model);
    if (model && asked.messages.slice(0, asked.question + 1).some(hasDocument)) await this.checkDocumentInput(model);
    const { messages, question } = await findQuestion(); // again: a turn may have started or ended meanwhile
    if (model) await this.update(conversationId, { model });
    const conversation = await this.requireReady(conversationId);
    await this.preparingTurn(conversationId, messages[question]!.id, async () => undefined);
    return conversation;
  }

  /**
   * Writes a new version of one of the user's messages with this text (its images stay) beside the old one, which
   * keeps what followed it, and starts a new turn from there. Answers the new version.
   */
  async editMessage(conversationId: string, messageId: string, text: string): Promise<ChatMessage> {
    await this.stopIfAwaitingApproval(conversationId);
    await this.requireReady(conversationId);
    const messages = await this.shownMessages(conversationId, messageId);
    const at = this.requireMessageIndex(messages, messageId);
    const message = messages[at]!;
    if (message.role !== 'user') throw new ChatError('invalid-request', 'Only your own messages can be edited.');
    // Its images and attached resources stay; only the typed text changes.
    const attached =
      typeof message.content === 'string'
        ? []
        : (message.content ?? []).filter((p) => p.type !== 'text' || isAttachedTextPart(p));
    if (text.trim() === '' && attached.length === 0) {
      throw new ChatError('invalid-request', 'A message needs text or an image: delete it instead.');
    }
    const content: ChatMessage['content'] =
      attached.length === 0 ? text : [...(text.trim() === '' ? [] : [{ type: 'text' as const, text }]), ...attached];
    const edited = this.newMessage(conversationId, {
      role: 'user',
      content,
      status: 'complete',
      parentId: message.parentId,
      chosenOrder: nextChosenOrder(await this.table.listMessages(conversationId)),
    });
    await this.preparingTurn(conversationId, edited.id, async () => {
      await this.table.insertMessage(edited);
      await this.update(conversationId, {});
    });
    return edited;
  }

  /**
   * Deletes one message and everything that follows it, in every version (a reply's tool results among them: a
   * result without its call would make the history invalid). Where it had other versions, the one chosen last is
   * shown. Answers the ids deleted.
   */
  async deleteMessage(conversationId: string, messageId: string): Promise<string[]> {
    await this.requireIdle(conversationId);
    const messages = await this.table.listMessages(conversationId);
    const at = this.requireMessageIndex(messages, messageId);
    const message = messages[at]!;
    if (message.role === 'tool') {
      throw new ChatError('invalid-request', 'A tool result belongs to the reply that called the tool: delete that.');
    }
    const ids = subtreeIds(messages, message.id);
    await this.table.deleteMessages(ids);
    await this.update(conversationId, {});
    return ids;
  }

  /** Each resource's contents as text parts and image data URLs; refuses what cannot be sent to a model. */
  private async readAttachedResources(resources: readonly ResourceReference[]) {
    const texts: ContentPart[] = [];
    const images: string[] = [];
    for (const { server, uri } of resources) {
      let contents: ResourceContent[];
      try {
        contents = await this.options.tools.readResource(server, uri);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new ChatError('unavailable', `Could not read ${uri} from MCP server "${server}": ${why}`);
      }
      for (const content of contents) {
        const mimeType = content.mimeType?.toLowerCase();
        const text = 'text' in content ? content.text : textOfBlob(content.blob, mimeType);
        if (text !== null) {
          if (text.length > maxResourceChars) {
            throw new ChatError(
              'invalid-request',
              `${content.uri} is too long to attach: ${text.length.toLocaleString('en')} characters, at most ${maxResourceChars.toLocaleString('en')}.`,
            );
          }
          texts.push(resourceTextPart({ server, uri: content.uri, ...(mimeType ? { mimeType } : {}) }, text));
          continue;
        }
        const data = 'blob' in content ? content.blob : '';
        const image = mimeType ? showableMedia({ type: 'image', mimeType, data }) : null;
        if (!image) {
          throw new ChatError(
            'invalid-request',
            `${content.uri} is ${mimeType ?? 'binary data'}: only text and PNG, JPEG, GIF or WebP images (up to ${maxImageBytes / 1024 / 1024} MiB) can be attached.`,
          );
        }
        images.push(mediaDataUrl(image));
      }
    }
    return { texts, images };
  }

  /** Aborts the upstream request and any running tool call; resolves once the turn has ended. */
  async stop(conversationId: string): Promise<boolean> {
    const turn = this.turns.get(conversationId);
    if (!turn) return false;
    turn.controller.abort(new TurnStopped());
    await turn.done;
    return true;
  }

  /** False when no such call is waiting (already decided, or the turn ended). */
  resolveApproval(conversationId: string, toolCallId: string, decision: ApprovalDecision): boolean {
    const pending = this.turns.get(conversationId)?.approvals.get(toolCallId);
    if (!pending) return false;
    pending.decide(decision);
    return true;
  }

  /** Stops every turn; later sends are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.turns.keys()].map((id) => this.stop(id)));
  }

  private startTurn(conversationId: string, leafId: string): void {
    const turn: Turn = {
      controller: new AbortController(),
      approvals: new Map(),
      live: null,
      leafId,
      done: Promise.resolve(),
    };
    this.turns.set(conversationId, turn);
    turn.done = this.runTurn(conversationId, turn)
      .catch((error: unknown) => {
        this.options.logger.error({ err: error, conversationId }, 'a chat turn failed unexpectedly');
      })
      .finally(() => {
        this.turns.delete(conversationId);
      });
  }

  private async runTurn(conversationId: string, turn: Turn): Promise<void> {
    const { signal } = turn.controller;
    let reason: TurnEnd = 'done';
    this.emit({ type: 'turn-start', conversationId });
    try {
      for (let step = 1; ; step += 1) {
        if (step > this.maxSteps) {
          reason = 'step-limit';
          this.emit({
            type: 'error',
            conversationId,
            messageId: null,
            message: `Stopped after ${this.maxSteps} model calls in one turn (the step limit). Send a message to go on.`,
          });
          break;
        }
        const reply = await this.streamReply(conversationId, turn);
        if (reply.status === 'error') {
          reason = 'error';
          break;
        }
        if (!reply.toolCalls || reply.toolCalls.length === 0) break;
        for (const call of reply.toolCalls) await this.runToolCall(conversationId, turn, reply.id, call);
      }
    } catch (error) {
      if (signal.aborted && signal.reason instanceof TurnStopped) {
        reason = 'stopped';
        await this.answerUnansweredCalls(conversationId, turn);
      } else {
        reason = 'error';
        this.options.logger.warn({ err: error, conversationId }, 'a chat turn failed');
        this.emit({ type: 'error', conversationId, messageId: null, message: describeError(error) });
      }
    } finally {
      // Calls still waiting were answered as stopped above; the UI drops their cards on turn-finish.
      turn.approvals.clear();
      if (await this.table.getConversation(conversationId)) await this.update(conversationId, {});
      this.emit({ type: 'turn-finish', conversationId, reason });
    }
  }

  /** One model call: streams it out and stores the reply. Throws TurnStopped's abort when stopped. */
  private async streamReply(conversationId: string, turn: Turn): Promise<ChatMessage> {
    const { signal } = turn.controller;
    const conversation = await this.requireConversation(conversationId);
    const model = conversation.model;
    if (!model) throw new ChatError('invalid-request', 'Choose a model for this conversation first.');
    const tools = this.options.tools.functionTools();
    const stored = await this.table.listMessages(conversationId);
    const history = pathTo(stored, turn.leafId);
    const request = {
      model,
      messages: toRequestMessages(conversation, history),
      stream_options: { include_usage: true },
      ...(tools.length > 0 ? { tools } : {}),
      ...requestSettings(conversation, await this.modelOption(conversation, model)),
    };
    const started = this.newMessage(conversationId, {
      role: 'assistant',
      status: 'streaming',
      model,
      parentId: turn.leafId,
      chosenOrder: nextChosenOrder(stored),
    });
    await this.table.insertMessage(started);
    turn.leafId = started.id;
    this.emit({ type: 'message-start', conversationId, message: started });

    const reply = new ReplyAccumulator();
    turn.live = { messageId: started.id, reply };
    let failure: string | null = null;
    try {
      for await (const chunk of this.options.gateway.stream(request, signal)) {
        const { text, reasoning } = reply.accept(chunk);
        if (reasoning) this.emit({ type: 'reasoning-delta', conversationId, messageId: started.id, text: reasoning });
        if (text) this.emit({ type: 'text-delta', conversationId, messageId: started.id, text });
      }
      failure = reply.error;
    } catch (error) {
      if (!signal.aborted) failure = describeError(error);
    } finally {
      turn.live = null;
    }

    const stopped = signal.aborted;
    // Calls of a reply that did not end normally are incomplete: none of them runs.
    const toolCalls =
      stopped || failure ? [] : uniqueCallIds(reply.toolCalls(), stored).map((call) => this.withTarget(call));
    const finished = (await this.table.updateMessage(started.id, {
      content: reply.text === '' ? null : reply.text,
      reasoning: reply.reasoning === '' ? null : reply.reasoning,
      reasoningDetails: reply.reasoningDetails,
      toolCalls: toolCalls.length > 0 ? toolCalls : null,
      usage: reply.usage,
      cost: this.replyCost(reply.usage?.cost, model),
      status: stopped ? 'stopped' : failure ? 'error' : 'complete',
      error: failure,
    })) ?? { ...started, status: 'stopped' as const };
    if (reply.usage) {
      this.emit({ type: 'usage', conversationId, messageId: started.id, usage: reply.usage, cost: finished.cost });
    }
    this.emit({ type: 'message-finish', conversationId, message: finished });
    if (failure) this.emit({ type: 'error', conversationId, messageId: started.id, message: failure });
    if (stopped) throw signal.reason;
    return finished;
  }

  private async runToolCall(conversationId: string, turn: Turn, messageId: string, call: ChatToolCall) {
    const { signal } = turn.controller;
    const target = this.options.tools.resolve(call.function.name);
    const autoApproved = target?.autoApproved ?? false;
    this.emit({ type: 'tool-call', conversationId, messageId, toolCall: call, autoApproved });

    let outcome: ToolOutcome;
    let status: ChatMessage['status'];
    if (!target) {
      outcome = { text: `Error: there is no tool "${call.function.name}".`, isError: true };
      status = 'error';
    } else {
      const decision = autoApproved ? 'once' : await this.askApproval(conversationId, turn, messageId, call, target);
      if (decision === 'deny') {
        outcome = { text: deniedToolResult, isError: false };
        status = 'denied';
      } else {
        if (decision === 'always') await this.allowAlways(target.server, target.tool);
        outcome = await this.options.tools.call(call.function.name, call.function.arguments, signal);
        status = signal.aborted ? 'stopped' : outcome.isError ? 'error' : 'complete';
      }
    }
    const message = this.newMessage(conversationId, {
      role: 'tool',
      toolCallId: call.id,
      content: toolMessageContent(outcome),
      status,
      error: status === 'error' ? firstLine(outcome.text) : null,
      parentId: turn.leafId,
    });
    await this.table.insertMessage(message);
    turn.leafId = message.id;
    this.emit({ type: 'tool-result', conversationId, message });
    if (signal.aborted) throw signal.reason;
  }

  private askApproval(
    conversationId: string,
    turn: Turn,
    messageId: string,
    call: ChatToolCall,
    target: ToolTarget,
  ): Promise<ApprovalDecision> {
    const { signal } = turn.controller;
    if (signal.aborted) return Promise.reject(signal.reason);
    const approval: PendingApproval = {
      conversationId,
      messageId,
      toolCallId: call.id,
      functionName: call.function.name,
      server: target.server,
      tool: target.tool,
      arguments: call.function.arguments,
      ...(target.hints ? { hints: target.hints } : {}),
    };
    return new Promise<ApprovalDecision>((resolve, reject) => {
      const onAbort = () => {
        turn.approvals.delete(call.id);
        reject(signal.reason);
      };
      turn.approvals.set(call.id, {
        approval,
        decide: (decision) => {
          signal.removeEventListener('abort', onAbort);
          turn.approvals.delete(call.id);
          this.emit({ type: 'approval-resolved', conversationId, toolCallId: call.id, decision });
          resolve(decision);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({ type: 'approval-required', conversationId, approval });
    });
  }

  private async allowAlways(server: string, tool: string): Promise<void> {
    try {
      await this.options.tools.allowAlways(server, tool);
    } catch (error) {
      // The call still runs: the user approved it. Only the "always" could not be saved.
      this.options.logger.warn({ err: error, server, tool }, 'could not add the tool to autoApprove');
    }
  }

  /** After a stop: every call of the last reply without a result gets one, so the history stays valid. */
  private async answerUnansweredCalls(conversationId: string, turn: Turn): Promise<void> {
    const messages = pathTo(await this.table.listMessages(conversationId), turn.leafId);
    const at = messages.findLastIndex((message) => message.role === 'assistant');
    const calls = messages[at]?.toolCalls ?? [];
    const results = resultsOf(calls, messages, at);
    for (const [index, call] of calls.entries()) {
      if (results[index]) continue;
      const message = this.newMessage(conversationId, {
        role: 'tool',
        toolCallId: call.id,
        content: stoppedToolResult,
        status: 'stopped',
        parentId: turn.leafId,
      });
      await this.table.insertMessage(message);
      turn.leafId = message.id;
      this.emit({ type: 'tool-result', conversationId, message });
    }
  }

  /** USD as the gateway reported it; null when it did not, or when its 0 stands for a model without a price. */
  private replyCost(cost: number | undefined, model: string): number | null {
    return replyCost(cost, model, this.options.isPriced);
  }

  private withTarget(call: ChatToolCall): ChatToolCall {
    const target = this.options.tools.resolve(call.function.name);
    return target ? { ...call, mcp: { server: target.server, tool: target.tool } } : call;
  }

  private async checkImageInput(model: string): Promise<void> {
    const option = (await this.options.models()).find((candidate) => candidate.id === model);
    if (option && !option.acceptsImages) {
      throw new ChatError('invalid-request', `${model} does not accept images: remove them or choose another model.`);
    }
  }

  private async checkDocumentInput(model: string): Promise<void> {
    const refusal = documentRefusal(
      model,
      (await this.options.models()).find((option) => option.id === model),
    );
    if (refusal) throw new ChatError('invalid-request', refusal);
  }

  /** The conversation, when nothing is running in it (changing its history mid-turn would garble the turn). */
  private async requireIdle(conversationId: string): Promise<Conversation> {
    const conversation = await this.requireConversation(conversationId);
    this.requireNoTurn(conversationId);
    return conversation;
  }

  private requireNoTurn(conversationId: string): void {
    if (this.turns.has(conversationId) || this.preparing.has(conversationId)) {
      throw new ChatError('conflict', 'This conversation is still answering: wait for it, or stop it first.');
    }
  }

  /**
   * Writes what a new turn starts from, then starts it. The conversation counts as busy from the first write, so
   * that a second send or edit arriving while the database works is refused instead of starting a turn twice.
   */
  private async preparingTurn(conversationId: string, leafId: string, write: () => Promise<void>): Promise<void> {
    this.requireNoTurn(conversationId);
    this.preparing.add(conversationId);
    try {
      await write();
    } finally {
      this.preparing.delete(conversationId);
    }
    this.startTurn(conversationId, leafId);
  }

  /** The conversation, when a turn can start in it now. */
  private async requireReady(conversationId: string): Promise<Conversation> {
    if (this.closed) throw new ChatError('unavailable', 'The chat is shutting down.');
    const conversation = await this.requireIdle(conversationId);
    if (!conversation.model) throw new ChatError('invalid-request', 'Choose a model for this conversation first.');
    return conversation;
  }

  /**
   * The shown path, when `messageId` is on it: a version out of sight cannot be regenerated or edited (its place
   * in the history would be another than the one the user sees).
   */
  private async shownMessages(conversationId: string, messageId: string): Promise<ChatMessage[]> {
    const stored = await this.table.listMessages(conversationId);
    this.requireMessageIndex(stored, messageId);
    const path = shownPath(stored);
    if (!path.some((message) => message.id === messageId)) {
      throw new ChatError('invalid-request', 'This version is not shown: show it first.');
    }
    return path;
  }

  /**
   * A turn that only waits for the user's decision on a tool call is stopped (the call answered as stopped, kept
   * with its reply's version), so that a new version can start instead of waiting for a decision nobody will make.
   */
  private async stopIfAwaitingApproval(conversationId: string): Promise<void> {
    const turn = this.turns.get(conversationId);
    if (turn && turn.approvals.size > 0) await this.stop(conversationId);
  }

  private requireMessageIndex(messages: ChatMessage[], messageId: string): number {
    const index = messages.findIndex((message) => message.id === messageId);
    if (index < 0) throw new ChatError('not-found', `There is no message "${messageId}" in this conversation.`);
    return index;
  }

  private async requireConversation(id: string): Promise<Conversation> {
    const conversation = await this.table.getConversation(id);
    if (!conversation) throw new ChatError('not-found', `There is no conversation "${id}".`);
    return conversation;
  }

  /** The listing's entry for the model, asked only when a setting depends on it (the reasoning effort). */
  private async modelOption(conversation: Conversation, model: string): Promise<ModelOption | undefined> {
    if (!conversation.reasoningEffort) return undefined;
    return (await this.options.models().catch(() => [])).find((option) => option.id === model);
  }

  private async update(id: string, changes: ConversationChanges): Promise<Conversation> {
    const updated = await this.table.updateConversation(id, changes, this.now());
    if (!updated) throw new ChatError('not-found', `There is no conversation "${id}".`);
    this.changed(id, 'updated');
    return updated;
  }

  private newMessage(conversationId: string, fields: Partial<ChatMessage> & Pick<ChatMessage, 'role' | 'status'>) {
    return newChatMessage({ id: randomUUID(), conversationId, createdAt: this.now(), ...fields });
  }

  private emit(event: ChatEvent): void {
    this.eventEmitter.fire(event);
  }

  private changed(conversationId: string, change: ConversationsChanged['change']): void {
    this.changeEmitter.fire({ conversationId, change });
  }
}

/** The text, and after it any images and audio as parts (request-messages.ts gives the model the text only). */
function toolMessageContent(outcome: ToolOutcome): ChatMessage['content'] {
  const media = outcome.media ?? [];
  if (media.length === 0) return outcome.text;
  return [{ type: 'text', text: outcome.text }, ...media.map(toMediaPart)];
}

/** A new conversation's title: the first line of its first message, shortened. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > titleLength ? `${line.slice(0, titleLength - 1)}…` : line;
}

/** A binary resource of a text type (text/*, JSON) as its UTF-8 text; null for any other. */
function textOfBlob(blob: string, mimeType: string | undefined): string | null {
  if (!mimeType || !(mimeType.startsWith('text/') || /^application\/([\w.+-]+\+)?json$/.test(mimeType))) return null;
  return Buffer.from(blob, 'base64').toString('utf8');
}

/** Sent to the model as an image: a user's attachment (a tool's image is kept for the user, described to the model). */
function hasImage(message: ChatMessage): boolean {
  if (message.role !== 'user') return false;
  return Array.isArray(message.content) && message.content.some((part) => part.type === 'image_url');
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

function describeError(error: unknown): string {
  if (error instanceof ChatError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `The request to the model failed: ${message}`;
}
