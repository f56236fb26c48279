// The turns of the chat: a turn sends the conversation to the model through the gateway, streams the reply out as
// events, runs the tool calls it asks for (auto-approved ones at once, others after the user decides), feeds the
// results back as `tool` messages and goes on until the model stops, the user stops it, or the step cap is reached.
// At most one turn runs in a conversation; while one runs (or is being written, preparingTurn), the conversation's
// history is not changed from outside it.

import { Emitter, type Event } from '../../shared/events/index.js';
import type {
  ApprovalDecision,
  ChatEvent,
  ChatMessage,
  Conversation,
  ModelOption,
  TurnEnd,
} from '../../shared/bridge/types.js';
import type { Logger } from '../common/index.js';
import { ChatError, StoppedByUser } from './chat-error.js';
import { requestSettings } from './chat-settings.js';
import type { ChatTools } from './chat-tools.js';
import type { ConversationRecords } from './conversation-records.js';
import { nextChosenOrder, pathTo } from './conversation-tree.js';
import type { ChatGateway } from './gateway-client.js';
import { ReplyAccumulator } from './reply-accumulator.js';
import { replyCost } from './reply-cost.js';
import { toRequestMessages, uniqueCallIds } from './request-messages.js';
import { TurnToolCalls } from './tool-calls.js';
import type { Turn } from './turn.js';

export const defaultMaxSteps = 10;

export interface ChatTurnsOptions {
  records: ConversationRecords;
  gateway: ChatGateway;
  tools: ChatTools;
  /** The models the picker offers (for the default model, the image and PDF checks, the reasoning effort). */
  models: () => Promise<ModelOption[]>;
  /**
   * Whether the price book knows what `<provider>/<model>` costs. The gateway reports 0 for a model it cannot
   * price; the chat stores such a reply's cost as unknown (null) so that it reads "unpriced", not "$0.00".
   */
  isPriced?: (model: string) => boolean;
  logger: Logger;
  /** Model calls per turn before the loop gives up (each tool round is one more). Default 10. */
  maxSteps?: number;
}

export class ChatTurns {
  private readonly turns = new Map<string, Turn>();
  /** Conversations whose next turn is being written (preparingTurn): busy like a running turn. */
  private readonly preparing = new Set<string>();
  private readonly eventEmitter: Emitter<ChatEvent>;
  /** Every event of every turn (text deltas, tool calls, approvals), for the UI. */
  readonly onEvent: Event<ChatEvent>;
  private readonly records: ConversationRecords;
  private readonly toolCalls: TurnToolCalls;
  private readonly maxSteps: number;
  private closed = false;

  constructor(private readonly options: ChatTurnsOptions) {
    this.records = options.records;
    this.maxSteps = Math.max(1, options.maxSteps ?? defaultMaxSteps);
    this.eventEmitter = new Emitter({
      onListenerError: (error) => options.logger.error({ err: error }, 'a chat event listener failed'),
    });
    this.onEvent = this.eventEmitter.event;
    this.toolCalls = new TurnToolCalls({
      records: options.records,
      tools: options.tools,
      logger: options.logger,
      emit: (event) => this.emit(event),
    });
  }

  /** The turn running in the conversation, if one is. */
  running(conversationId: string): Turn | undefined {
    return this.turns.get(conversationId);
  }

  /** The conversation, when nothing is running in it (changing its history mid-turn would garble the turn). */
  async requireIdle(conversationId: string): Promise<Conversation> {
    const conversation = await this.records.requireConversation(conversationId);
    this.requireNoTurn(conversationId);
    return conversation;
  }

  /** The conversation, when a turn can start in it now. */
  async requireReady(conversationId: string): Promise<Conversation> {
    if (this.closed) throw new ChatError('unavailable', 'The chat is shutting down.');
    const conversation = await this.requireIdle(conversationId);
    if (!conversation.model) throw new ChatError('invalid-request', 'Choose a model for this conversation first.');
    return conversation;
  }

  /**
   * Writes what a new turn starts from, then starts it. The conversation counts as busy from the first write, so
   * that a second send or edit arriving while the database works is refused instead of starting a turn twice.
   */
  async preparingTurn(conversationId: string, leafId: string, write: () => Promise<void>): Promise<void> {
    this.requireNoTurn(conversationId);
    this.preparing.add(conversationId);
    try {
      await write();
    } finally {
      this.preparing.delete(conversationId);
    }
    this.startTurn(conversationId, leafId);
  }

  /**
   * A turn that only waits for the user's decision on a tool call is stopped (the call answered as stopped, kept
   * with its reply's version), so that a new version can start instead of waiting for a decision nobody will make.
   */
  async stopIfAwaitingApproval(conversationId: string): Promise<void> {
    const turn = this.turns.get(conversationId);
    if (turn && turn.approvals.size > 0) await this.stop(conversationId);
  }

  /** Aborts the upstream request and any running tool call; resolves once the turn has ended. */
  async stop(conversationId: string): Promise<boolean> {
    const turn = this.turns.get(conversationId);
    if (!turn) return false;
    turn.controller.abort(new StoppedByUser('The turn was stopped.'));
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

  /** Stops every turn; later turns are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.turns.keys()].map((id) => this.stop(id)));
  }

  private requireNoTurn(conversationId: string): void {
    if (this.turns.has(conversationId) || this.preparing.has(conversationId)) {
      throw new ChatError('conflict', 'This conversation is still answering: wait for it, or stop it first.');
    }
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
        for (const call of reply.toolCalls) await this.toolCalls.run(conversationId, turn, reply.id, call);
      }
    } catch (error) {
      if (signal.aborted && signal.reason instanceof StoppedByUser) {
        reason = 'stopped';
        await this.toolCalls.answerUnanswered(conversationId, turn);
      } else {
        reason = 'error';
        this.options.logger.warn({ err: error, conversationId }, 'a chat turn failed');
        this.emit({ type: 'error', conversationId, messageId: null, message: describeError(error) });
      }
    } finally {
      // Calls still waiting were answered as stopped above; the UI drops their cards on turn-finish.
      turn.approvals.clear();
      if (await this.records.table.getConversation(conversationId)) await this.records.update(conversationId, {});
      this.emit({ type: 'turn-finish', conversationId, reason });
    }
  }

  /** One model call: streams it out and stores the reply. Throws the stop's abort reason when stopped. */
  private async streamReply(conversationId: string, turn: Turn): Promise<ChatMessage> {
    const { signal } = turn.controller;
    const { table } = this.records;
    const conversation = await this.records.requireConversation(conversationId);
    const model = conversation.model;
    if (!model) throw new ChatError('invalid-request', 'Choose a model for this conversation first.');
    const tools = this.options.tools.functionTools();
    const stored = await table.listMessages(conversationId);
    const history = pathTo(stored, turn.leafId);
    const request = {
      model,
      messages: toRequestMessages(conversation, history),
      stream_options: { include_usage: true },
      ...(tools.length > 0 ? { tools } : {}),
      ...requestSettings(conversation, await this.modelOption(conversation, model)),
    };
    const started = this.records.newMessage(conversationId, {
      role: 'assistant',
      status: 'streaming',
      model,
      parentId: turn.leafId,
      chosenOrder: nextChosenOrder(stored),
    });
    await table.insertMessage(started);
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
      stopped || failure ? [] : uniqueCallIds(reply.toolCalls(), stored).map((call) => this.toolCalls.withTarget(call));
    const finished = (await table.updateMessage(started.id, {
      content: reply.text === '' ? null : reply.text,
      reasoning: reply.reasoning === '' ? null : reply.reasoning,
      reasoningDetails: reply.reasoningDetails,
      toolCalls: toolCalls.length > 0 ? toolCalls : null,
      usage: reply.usage,
      cost: replyCost(reply.usage?.cost, model, this.options.isPriced),
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

  /** The listing's entry for the model, asked only when a setting depends on it (the reasoning effort). */
  private async modelOption(conversation: Conversation, model: string): Promise<ModelOption | undefined> {
    if (!conversation.reasoningEffort) return undefined;
    return (await this.options.models().catch(() => [])).find((option) => option.id === model);
  }

  private emit(event: ChatEvent): void {
    this.eventEmitter.fire(event);
  }
}

function describeError(error: unknown): string {
  if (error instanceof ChatError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `The request to the model failed: ${message}`;
}
