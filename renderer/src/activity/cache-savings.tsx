// What the response cache saved among the requests listed in Activity (decision 031): how many were answered from
// it, and the sum of what those answers cost when their upstream gave them. Nothing when none was a hit.

import { formatCost, type UsageRecord } from '../../../shared/api/index.js';

export function CacheSavings({ rows }: { rows: readonly UsageRecord[] }) {
  const hits = rows.filter((row) => row.cache === 'hit');
  if (hits.length === 0) return null;
  const saved = hits.reduce((sum, row) => sum + (row.saved_cost ?? 0), 0);
  return (
    <p className="muted">
      {hits.length} of these {rows.length} requests were answered from the response cache, saving{' '}
      {formatCost(saved, false)}.
    </p>
  );
}
