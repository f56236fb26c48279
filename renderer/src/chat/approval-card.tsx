// Asks before a tool runs: once, always (the tool joins its server's autoApprove), or deny (the model is told).

import { useState } from 'react';
import type { ApprovalDecision, PendingApproval } from '../../../shared/bridge/types.js';

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
