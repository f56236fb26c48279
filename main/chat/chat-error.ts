// The one error type of the chat: its code says what went wrong in the bridge's terms (the bridge passes it on as
// it is), its message is for people.

import type { BridgeErrorCode } from '../../shared/bridge/transport.js';

export class ChatError extends Error {
  readonly code: BridgeErrorCode;

  constructor(code: BridgeErrorCode, message: string) {
    super(message);
    this.name = 'ChatError';
    this.code = code;
  }
}
