// SQL for what money has been granted and spent: credit_account (one row: the running totals), credit_ledger
// (every change of the granted total) and key_spend_daily (each key's spend per UTC day). Amounts are whole
// nano-dollars. addUsage runs inside the transaction that inserts the usage rows (Store.insertUsage), so that
//   credit_account.used_nanos = sum(usage_log.cost_nanos)    and
//   sum(key_spend_daily.cost_nanos of a key) = sum(usage_log.cost_nanos of that key)
// hold by construction; changeCredits keeps credit_account.granted_nanos = sum(credit_ledger.amount_nanos).

import type { Database, Statement } from 'better-sqlite3';
import type { CreditAction } from '../../../shared/api/index.js';
import { creditsAfter, msPerDay } from '../contract/spend.js';
import type { CreditAccountRow, CreditChange, CreditLedgerRow, SpentUsage } from '../contract/spend.js';

interface AccountColumns {
  limited: number;
  granted_nanos: number;
  used_nanos: number;
}

interface LedgerColumns {
  created_at: number;
  action: CreditAction;
  amount_nanos: number;
  balance_nanos: number | null;
}

export class SpendTable {
  private readonly accountStatement: Statement<[], AccountColumns>;
  private readonly updateAccountStatement: Statement<[{ limited: number; granted: number }]>;
  private readonly addUsedStatement: Statement<[number]>;
  private readonly insertLedgerStatement: Statement<[LedgerColumns]>;
  private readonly ledgerStatement: Statement<[], CreditLedgerRow>;
  private readonly addKeyDayStatement: Statement<[string, number, number]>;
  private readonly keySpendStatement: Statement<[string, number], number>;

  constructor(db: Database) {
    this.accountStatement = db.prepare('SELECT limited, granted_nanos, used_nanos FROM credit_account WHERE id = 1');
    this.updateAccountStatement = db.prepare(
      'UPDATE credit_account SET limited = @limited, granted_nanos = @granted WHERE id = 1',
    );
    this.addUsedStatement = db.prepare('UPDATE credit_account SET used_nanos = used_nanos + ? WHERE id = 1');
    this.insertLedgerStatement = db.prepare(
      `INSERT INTO credit_ledger (created_at, action, amount_nanos, balance_nanos)
       VALUES (@created_at, @action, @amount_nanos, @balance_nanos)`,
    );
    this.ledgerStatement = db.prepare(
      `SELECT id, created_at AS createdAt, action, amount_nanos AS amountNanos, balance_nanos AS balanceNanos
       FROM credit_ledger ORDER BY id`,
    );
    this.addKeyDayStatement = db.prepare(
      `INSERT INTO key_spend_daily (key_id, day, cost_nanos) VALUES (?, ?, ?)
       ON CONFLICT (key_id, day) DO UPDATE SET cost_nanos = cost_nanos + excluded.cost_nanos`,
    );
    this.keySpendStatement = db
      .prepare<[string, number], number>(
        'SELECT coalesce(sum(cost_nanos), 0) FROM key_spend_daily WHERE key_id = ? AND day >= ?',
      )
      .pluck();
  }

  account(): CreditAccountRow {
    const row = this.accountStatement.get();
    if (!row) throw new Error('the credit_account row is missing from the database');
    return { limited: row.limited !== 0, grantedNanos: row.granted_nanos, usedNanos: row.used_nanos };
  }

  /** Applies the change and writes its ledger entry. Call inside a transaction. */
  changeCredits(change: CreditChange): CreditAccountRow {
    const { after, entry } = creditsAfter(this.account(), change);
    this.updateAccountStatement.run({ limited: after.limited ? 1 : 0, granted: after.grantedNanos });
    this.insertLedgerStatement.run({
      created_at: entry.createdAt,
      action: entry.action,
      amount_nanos: entry.amountNanos,
      balance_nanos: entry.balanceNanos,
    });
    return after;
  }

  /** Oldest first. */
  ledger(): CreditLedgerRow[] {
    return this.ledgerStatement.all();
  }

  /** Counts inserted usage rows. Call inside the transaction that inserted them. */
  addUsage(spent: readonly SpentUsage[]): void {
    let total = 0;
    const perKeyDay = new Map<string, { keyId: string; day: number; nanos: number }>();
    for (const { keyId, createdAt, costNanos } of spent) {
      if (costNanos === 0) continue;
      total += costNanos;
      const day = Math.floor(createdAt / msPerDay);
      const bucket = `${day} ${keyId}`;
      const entry = perKeyDay.get(bucket);
      if (entry) entry.nanos += costNanos;
      else perKeyDay.set(bucket, { keyId, day, nanos: costNanos });
    }
    if (total !== 0) this.addUsedStatement.run(total);
    for (const { keyId, day, nanos } of perKeyDay.values()) this.addKeyDayStatement.run(keyId, day, nanos);
  }

  /** What the key spent in rows created on `fromDay` (days since 1970-01-01 UTC) or later. */
  keySpendSince(keyId: string, fromDay: number): number {
    return this.keySpendStatement.get(keyId, fromDay) ?? 0;
  }
}
