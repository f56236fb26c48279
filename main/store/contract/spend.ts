// Money granted and spent, as both engines keep it: the credit account, its ledger, and the part of a usage row that
// spend counts. Amounts are whole nano-dollars.

import type { CreditAction } from '../../../shared/api/index.js';

export const msPerDay = 86_400_000;

export interface CreditAccountRow {
  /** False: no balance is configured and nothing is refused for credits. */
  limited: boolean;
  grantedNanos: number;
  usedNanos: number;
}

export interface CreditLedgerRow {
  id: number;
  createdAt: number;
  action: CreditAction;
  /** What the change added to the granted total. */
  amountNanos: number;
  /** The balance right after; null when the change made the account unlimited. */
  balanceNanos: number | null;
}

export type CreditChange =
  | { action: 'set'; balanceNanos: number; at: number }
  | { action: 'add'; amountNanos: number; at: number }
  | { action: 'unset'; at: number };

/** The part of an inserted usage row that spend counts. */
export interface SpentUsage {
  keyId: string;
  createdAt: number;
  costNanos: number;
}

/** The account after a change of credits, and the ledger entry that records it (both engines). */
export function creditsAfter(
  before: CreditAccountRow,
  change: CreditChange,
): { after: CreditAccountRow; entry: Omit<CreditLedgerRow, 'id'> } {
  let after: CreditAccountRow;
  if (change.action === 'unset') after = { ...before, limited: false };
  else if (change.action === 'set') {
    after = { ...before, limited: true, grantedNanos: before.usedNanos + change.balanceNanos };
  } else {
    // Adding to an unlimited account starts from a zero balance, not from whatever was granted before.
    const base = before.limited ? before.grantedNanos : before.usedNanos;
    after = { ...before, limited: true, grantedNanos: base + change.amountNanos };
  }
  const entry = {
    createdAt: change.at,
    action: change.action,
    amountNanos: after.grantedNanos - before.grantedNanos,
    balanceNanos: after.limited ? after.grantedNanos - after.usedNanos : null,
  };
  return { after, entry };
}
