// A conversation's settings (ChatSettings) as a new conversation takes them and as its requests carry them. Only
// what the person set is sent, so a model's own defaults apply to the rest; the reasoning effort goes only to
// models that may reason, since a model that does not may refuse the field outright.

import type { ChatRequest } from '../../shared/api/index.js';
import type { GivenChatSettings } from '../../shared/bridge/chat-message.js';
import type { Conversation, ModelOption } from '../../shared/bridge/types.js';

/** What a new conversation may be given; unset settings are the model's defaults. */
export type NewConversationFields = GivenChatSettings & { model?: string | null };

/** Every setting, the defaults for those not given (kept with the defaults, for main and the screen alike). */
export { settingsOf } from '../../shared/bridge/chat-message.js';

export type RequestSettings = Pick<
  ChatRequest,
  'temperature' | 'max_tokens' | 'top_p' | 'seed' | 'stop' | 'reasoning_effort'
>;

/**
 * The request fields of the conversation's settings. `model`: the model's option when the listing has it; an
 * unknown model is sent the reasoning effort (the person chose it, and the gateway says if it is refused).
 */
export function requestSettings(conversation: Conversation, model: ModelOption | undefined): RequestSettings {
  const fields: RequestSettings = {};
  if (conversation.temperature !== null) fields.temperature = conversation.temperature;
  if (conversation.maxTokens != null) fields.max_tokens = conversation.maxTokens;
  if (conversation.topP != null) fields.top_p = conversation.topP;
  if (conversation.seed != null) fields.seed = conversation.seed;
  if (conversation.stop && conversation.stop.length > 0) fields.stop = conversation.stop;
  if (conversation.reasoningEffort && model?.reasons !== false) fields.reasoning_effort = conversation.reasoningEffort;
  return fields;
}
