// Asks before a tool runs: once, always (the tool joins its server's autoApprove), or deny (the model is told).

import { useState } from 'react';
import type { ApprovalDecision, PendingApproval, ToolHints } from '../../../shared/bridge/types.js';

interface ApprovalCardProps {
  approval: PendingApproval;
  onDecide(approval: PendingApproval, decision: ApprovalDecision): void;
}

export function ApprovalCard({ approval, onDecide }: ApprovalCardProps) {
  const [decided, setDecided] = useState(false);
  const decide = (decision: ApprovalDecision) => {
    setDecided(true);
    onDecide(approval, decision);
  };
  return (
    <div className="approval-card" role="group" aria-label={`Approve ${approval.tool} on ${approval.server}`}>
      <p>
        The model wants to run <strong>{approval.tool}</strong> on <strong>{approval.server}</strong>.
      </p>
      <HintBadges hints={approval.hints} />
      <div className="approval-actions">
        <button type="button" className="primary" disabled={decided} onClick={() => decide('once')}>
          Approve once
        </button>
        <button type="button" disabled={decided} onClick={() => decide('always')}>
          Always allow
        </button>
        <button type="button" className="danger" disabled={decided} onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}

/** What the server says the tool does (its MCP annotations): shown as the server's word, not ours. */
function HintBadges({ hints }: { hints: ToolHints | undefined }) {
  const badges = [
    ...(hints?.readOnly === true ? [{ text: 'read-only', danger: false }] : []),
    ...(hints?.readOnly !== true && hints?.destructive === true
      ? [{ text: 'may delete or overwrite', danger: true }]
      : []),
    ...(hints?.openWorld === true ? [{ text: 'reaches the internet or other systems', danger: false }] : []),
  ];
  if (badges.length === 0) return null;
  return (
    <p className="approval-hints" aria-label="What the server says this tool does">
      <span className="muted">Its server says: </span>
      {badges.map((badge) => (
        <span key={badge.text} className={badge.danger ? 'badge state-disabled' : 'badge'}>
          {badge.text}
        </span>
      ))}
    </p>
  );
}
