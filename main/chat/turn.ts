// A running turn as the chat's parts share it: how to stop it, the tool calls waiting for the user's decision, the
// reply being streamed, and where in the conversation's tree its next message goes.

import type { ApprovalDecision, PendingApproval } from '../../shared/bridge/types.js';
import type { ReplyAccumulator } from './reply-accumulator.js';

export interface PendingDecision {
  approval: PendingApproval;
  decide(decision: ApprovalDecision): void;
}

export interface Turn {
  controller: AbortController;
  approvals: Map<string, PendingDecision>;
  /** The reply being streamed, so that a reload mid-stream shows what arrived so far. */
  live: { messageId: string; reply: ReplyAccumulator } | null;
  /** The message the turn's next one follows: its history is the path to this one (conversation-tree.ts). */
  leafId: string;
  done: Promise<void>;
}
