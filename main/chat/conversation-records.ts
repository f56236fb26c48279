// The conversations as the chat's parts read and write them: the one place that finds a conversation or refuses a
// missing one, updates it and tells the lists it changed, and makes a new message with its id and time. The chat
// service, its turns and its message edits share one of these, so a change is announced the same way from each.

import { randomUUID } from 'node:crypto';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import { Emitter, type Event } from '../../shared/events/index.js';
import type { ChatMessage, Conversation, ConversationsChanged } from '../../shared/bridge/types.js';
import type { Logger } from '../common/index.js';
import type { ChatStore, ConversationChanges } from '../store/index.js';
import { ChatError } from './chat-error.js';

export type NewMessageFields = Partial<ChatMessage> & Pick<ChatMessage, 'role' | 'status'>;

export class ConversationRecords {
  private readonly changeEmitter: Emitter<ConversationsChanged>;
  readonly onConversationsChanged: Event<ConversationsChanged>;

  constructor(
    readonly table: ChatStore,
    readonly now: () => number,
    logger: Logger,
  ) {
    this.changeEmitter = new Emitter({
      onListenerError: (error) => logger.error({ err: error }, 'a conversation listener failed'),
    });
    this.onConversationsChanged = this.changeEmitter.event;
  }

  async requireConversation(id: string): Promise<Conversation> {
    const conversation = await this.table.getConversation(id);
    if (!conversation) throw new ChatError('not-found', `There is no conversation "${id}".`);
    return conversation;
  }

  async update(id: string, changes: ConversationChanges): Promise<Conversation> {
    const updated = await this.table.updateConversation(id, changes, this.now());
    if (!updated) throw new ChatError('not-found', `There is no conversation "${id}".`);
    this.changed(id, 'updated');
    return updated;
  }

  newMessage(conversationId: string, fields: NewMessageFields): ChatMessage {
    return newChatMessage({ id: randomUUID(), conversationId, createdAt: this.now(), ...fields });
  }

  changed(conversationId: string, change: ConversationsChanged['change']): void {
    this.changeEmitter.fire({ conversationId, change });
  }
}

export function requireMessageIndex(messages: readonly ChatMessage[], messageId: string): number {
  const index = messages.findIndex((message) => message.id === messageId);
  if (index < 0) throw new ChatError('not-found', `There is no message "${messageId}" in this conversation.`);
  return index;
}
