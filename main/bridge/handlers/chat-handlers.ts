import type { ChatService } from '../../chat/index.js';
import type { BridgeHandlerMap } from './handler-types.js';

type ChatChannel =
  | 'chat:list-conversations'
  | 'chat:create-conversation'
  | 'chat:get-conversation'
  | 'chat:rename-conversation'
  | 'chat:delete-conversation'
  | 'chat:update-conversation'
  | 'chat:send'
  | 'chat:regenerate'
  | 'chat:edit-message'
  | 'chat:delete-message'
  | 'chat:stop'
  | 'chat:resolve-approval';

export function chatHandlers(chat: ChatService): BridgeHandlerMap<ChatChannel> {
  return {
    'chat:list-conversations': ({ query }) => ({ conversations: chat.listConversations(query) }),
    'chat:create-conversation': (fields) => ({ conversation: chat.createConversation(fields) }),
    'chat:get-conversation': ({ id }) => chat.getConversation(id),
    'chat:rename-conversation': ({ id, title }) => ({ conversation: chat.renameConversation(id, title) }),
    'chat:delete-conversation': async ({ id }) => ({ deleted: await chat.deleteConversation(id) }),
    'chat:update-conversation': ({ id, ...changes }) => ({ conversation: chat.updateConversation(id, changes) }),
    'chat:send': async ({ conversationId, text, images, resources }) => ({
      message: await chat.send(conversationId, text, images, resources),
    }),
    'chat:regenerate': async ({ conversationId, messageId, model }) => ({
      conversation: await chat.regenerate(conversationId, messageId, model),
    }),
    'chat:edit-message': ({ conversationId, messageId, text }) => ({
      message: chat.editMessage(conversationId, messageId, text),
    }),
    'chat:delete-message': ({ conversationId, messageId }) => ({
      deleted: chat.deleteMessage(conversationId, messageId),
    }),
    'chat:stop': async ({ conversationId }) => ({ stopped: await chat.stop(conversationId) }),
    'chat:resolve-approval': ({ conversationId, toolCallId, decision }) => ({
      resolved: chat.resolveApproval(conversationId, toolCallId, decision),
    }),
  };
}
