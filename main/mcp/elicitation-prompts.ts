// Questions MCP servers ask the person during a tool call (elicitation), for whatever UI shows them (see
// pending-prompts.ts): with nobody listening a question is declined at once; one whose call ended is cancelled.

import { PendingPrompts } from './pending-prompts.js';
import type { ElicitationAnswer, ElicitationRequest } from './types.js';

export interface ElicitationPrompt extends ElicitationRequest {
  id: string;
}

export class ElicitationPrompts extends PendingPrompts<ElicitationRequest, ElicitationAnswer> {
  constructor() {
    super({ unanswered: { action: 'decline' }, withdrawn: { action: 'cancel' } });
  }
}
