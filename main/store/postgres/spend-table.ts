// SQL for credit_account, credit_ledger and key_spend_daily in PostgreSQL's dialect, keeping the same invariants as
// the SQLite engine's SpendTable (../sqlite/spend-table.ts): used_nanos = Σ usage_log.cost_nanos and each key's daily
// totals sum to its rows' costs, because addUsage runs in the transaction that inserted the rows; granted_nanos =
// Σ credit_ledger.amount_nanos, because changeCredits writes both in one transaction.

import type pg from 'pg';
import { creditsAfter, msPerDay } from '../contract/spend.js';
import type { CreditAccountRow, CreditChange, CreditLedgerRow, SpentUsage } from '../contract/spend.js';
import type { SpendTotals } from './replica.js';

/**
 * Applies the change and writes its ledger entry, inside the caller's transaction. The account row is locked first,
 * so a usage batch committing meanwhile is counted before the new balance is computed, never lost.
 */
export async function changeCredits(client: pg.ClientBase, change: CreditChange): Promise<CreditAccountRow> {
  const { rows } = await client.query<{ limited: boolean; granted_nanos: number; used_nanos: number }>(
    'SELECT limited, granted_nanos, used_nanos FROM credit_account WHERE id = 1 FOR UPDATE',
  );
  const row = rows[0];
  if (!row) throw new Error('the credit_account row is missing from the database');
  const before: CreditAccountRow = { limited: row.limited, grantedNanos: row.granted_nanos, usedNanos: row.used_nanos };
  const { after, entry } = creditsAfter(before, change);
  await client.query('UPDATE credit_account SET limited = $1, granted_nanos = $2 WHERE id = 1', [
    after.limited,
    after.grantedNanos,
  ]);
  await client.query(
    'INSERT INTO credit_ledger (created_at, action, amount_nanos, balance_nanos) VALUES ($1, $2, $3, $4)',
    [entry.createdAt, entry.action, entry.amountNanos, entry.balanceNanos],
  );
  return after;
}

/** Oldest first. */
export async function creditLedger(client: pg.Pool): Promise<CreditLedgerRow[]> {
  const { rows } = await client.query<CreditLedgerRow>(
    `SELECT id, created_at AS "createdAt", action, amount_nanos AS "amountNanos", balance_nanos AS "balanceNanos"
     FROM credit_ledger ORDER BY id`,
  );
  return rows;
}

/**
 * Counts inserted usage rows, inside the transaction that inserted them; answers the totals they left (for the
 * batch's notification), or undefined when they cost nothing.
 */
export async function addUsage(client: pg.ClientBase, spent: readonly SpentUsage[]): Promise<SpendTotals | undefined> {
  const priced = spent.filter((row) => row.costNanos !== 0);
  if (priced.length === 0) return undefined;
  const total = priced.reduce((sum, row) => sum + row.costNanos, 0);
  const account = await client.query<{ used_nanos: number }>(
    'UPDATE credit_account SET used_nanos = used_nanos + $1 WHERE id = 1 RETURNING used_nanos',
    [total],
  );
  const days = await client.query<{ key_id: string; day: number; cost_nanos: number }>(
    `INSERT INTO key_spend_daily AS s (key_id, day, cost_nanos)
     SELECT key_id, day, sum(nanos) FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS r (key_id, day, nanos)
     GROUP BY key_id, day
     ON CONFLICT (key_id, day) DO UPDATE SET cost_nanos = s.cost_nanos + excluded.cost_nanos
     RETURNING key_id, day, cost_nanos`,
    [
      priced.map((row) => row.keyId),
      priced.map((row) => Math.floor(row.createdAt / msPerDay)),
      priced.map((row) => row.costNanos),
    ],
  );
  return {
    usedNanos: account.rows[0]?.used_nanos ?? 0,
    days: days.rows.map((row) => [row.key_id, row.day, row.cost_nanos]),
  };
}
