// The one error type of the chat: its code says what went wrong in the bridge's terms (the bridge passes it on as
// it is), its message is for people. It is the bridge's own error type, named for where it came from.

import { BridgeError } from '../../shared/bridge/client.js';

export class ChatError extends BridgeError {
  override readonly name = 'ChatError';
}
