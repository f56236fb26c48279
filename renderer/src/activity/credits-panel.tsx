// The account balance requests spend: set it, top it up, or go back to unlimited (decision 004).

import { useState, type FormEvent } from 'react';
import { formatMoney, type CreditLedgerEntry, type CreditsStatus } from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { when } from '../ui/format.js';
import { ErrorNotice } from '../ui/parts.js';

interface CreditsPanelProps {
  credits: { status: CreditsStatus; history: CreditLedgerEntry[] } | undefined;
  error: string | null;
  onChanged(): void;
}

export function CreditsPanel({ credits, error, onChanged }: CreditsPanelProps) {
  const bridge = useBridge();
  const [amount, setAmount] = useState('');
  const [actionError, setActionError] = useState<string | null>(null);
  const status = credits?.status;

  const run = async (action: 'set' | 'add' | 'unset') => {
    setActionError(null);
    try {
      if (action === 'unset') await bridge.invoke('credits:unset');
      else await bridge.invoke(action === 'set' ? 'credits:set' : 'credits:add', { amount: Number(amount) });
      setAmount('');
      onChanged();
    } catch (failure) {
      setActionError(errorMessage(failure));
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void run(submitter?.value === 'set' ? 'set' : 'add');
  };

  return (
    <section className="panel credits" aria-labelledby="credits-title">
      <h2 id="credits-title">Credits</h2>
      <ErrorNotice message={error} />
      <p className="credits-balance" aria-label="Balance">
        {status === undefined ? '…' : status.limited ? formatMoney(status.balance) : 'Unlimited'}
      </p>
      <p className="muted credits-detail">
        {status === undefined
          ? ''
          : status.limited
            ? `${formatMoney(status.granted)} granted, ${formatMoney(status.used)} used. At 0, requests get 402.`
            : `No balance is set, so nothing is refused for credits. ${formatMoney(status.used)} used so far.`}
      </p>
      <form className="credits-form" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="credits-amount">
          Amount in USD
        </label>
        <input
          id="credits-amount"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          placeholder="USD"
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <button type="submit" value="add">
          Add credits
        </button>
        <button type="submit" value="set">
          Set balance
        </button>
      </form>
      {status?.limited ? (
        <button type="button" className="link-button" onClick={() => void run('unset')}>
          Remove the balance (unlimited)
        </button>
      ) : null}
      <ErrorNotice message={actionError} />
      {credits && credits.history.length > 0 ? (
        <details className="disclosure">
          <summary>History ({credits.history.length})</summary>
          <ul className="ledger">
            {[...credits.history].reverse().map((entry) => (
              <li key={entry.id}>
                <span>{when(entry.created_at)}</span>
                <span>
                  {entry.action} {entry.action === 'unset' ? '' : formatMoney(entry.amount)}
                </span>
                <span className="muted">
                  → {entry.balance_after === null ? 'unlimited' : formatMoney(entry.balance_after)}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
