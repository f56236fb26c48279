// Activity: spend and requests over time, breakdowns by model, app and key, the credits balance, recent requests
// with their details, and CSV exports (the same files as `switchyard usage --csv`).

import { useCallback, useMemo, useState } from 'react';
import { formatCost, type UsageRecord, type UsageSummaryRow } from '../../../shared/api/index.js';
import { CacheSavings } from './cache-savings.js';
import { errorMessage, useBridge, useBridgeEvent } from '../bridge/bridge-context.js';
import { count, when } from '../ui/format.js';
import { EmptyState, ErrorNotice, Screen } from '../ui/parts.js';
import { Table, TableHead } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';
import { CreditsPanel } from './credits-panel.js';
import { GenerationDialog } from './generation-dialog.js';
import { HubCallsPanel } from './hub-calls-panel.js';
import { dayPoints, periods, periodStart, type PeriodId } from './period.js';
import { UsageChart } from './usage-chart.js';

export function ActivityScreen() {
  const bridge = useBridge();
  const [period, setPeriod] = useState<PeriodId>('30d');
  // The days shown: a new window on each refresh, so everything loads again and a screen left open past midnight
  // UTC moves on to the new day.
  const [shown, setShown] = useState(() => ({ since: periodStart('30d') }));
  const since = shown.since;
  const [opened, setOpened] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  const summary = useLoad(
    useCallback(async () => {
      const [day, model, app, key] = await Promise.all(
        (['day', 'model', 'app', 'key'] as const).map((by) =>
          bridge.invoke('usage:summary', { by, since: shown.since }),
        ),
      );
      return { day: day!, model: model!, app: app!, key: key! };
    }, [bridge, shown]),
  );
  const recent = useLoad(
    useCallback(
      async () => (await bridge.invoke('usage:recent', { since: shown.since, limit: 50 })).rows,
      [bridge, shown],
    ),
  );
  const credits = useLoad(useCallback(() => bridge.invoke('credits:show'), [bridge]));
  const showPeriod = (id: PeriodId) => {
    setPeriod(id);
    setShown({ since: periodStart(id) });
  };
  const refresh = () => {
    setShown({ since: periodStart(period) });
    void credits.reload();
  };
  // New requests (from the gateway or the chat) show up by themselves.
  useBridgeEvent('usage:recorded', refresh);

  const points = useMemo(() => (summary.data ? dayPoints(summary.data.day.rows, since) : []), [summary.data, since]);
  const total = summary.data?.day.total;
  const keyNames = useMemo(
    () => new Map(summary.data?.key.rows.map((row) => [row.group, row.label]) ?? []),
    [summary.data],
  );

  const exportCsv = async (kind: 'summary' | 'requests') => {
    setExportError(null);
    try {
      const { fileName, csv } = await bridge.invoke('usage:export-csv', { kind, by: 'day', since });
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setExportError(errorMessage(failure));
    }
  };

  const periodLabel = periods.find((candidate) => candidate.id === period)?.label ?? '';
  return (
    <Screen
      title="Activity"
      className="activity"
      actions={
        <>
          <div className="segmented" role="radiogroup" aria-label="Period">
            {periods.map((candidate) => (
              <label key={candidate.id} className={candidate.id === period ? 'selected' : undefined}>
                <input
                  type="radio"
                  name="period"
                  value={candidate.id}
                  checked={candidate.id === period}
                  onChange={() => showPeriod(candidate.id)}
                />
                {candidate.label}
              </label>
            ))}
          </div>
          <button type="button" onClick={refresh}>
            Refresh
          </button>
        </>
      }
    >
      <ErrorNotice message={summary.error} />
      <div className="activity-top">
        <div className="activity-main">
          <section className="panel totals" aria-label="Totals">
            <Stat label="Spent" value={total ? formatCost(total.cost, total) : '…'} />
            <Stat label="Requests" value={total ? count(total.requests) : '…'} />
            <Stat label="Tokens" value={total ? count(total.prompt_tokens + total.completion_tokens) : '…'} />
            <Stat label="Errors" value={total ? count(total.errors) : '…'} />
            {total && total.unpriced_requests > 0 ? (
              <p className="muted totals-note">
                {count(total.unpriced_requests)} requests had no price: set one under Providers.
              </p>
            ) : null}
          </section>

          <section className="panel" aria-labelledby="chart-title">
            <div className="section-header">
              <h2 id="chart-title">Spend per day (UTC)</h2>
              <div className="row-actions">
                <button type="button" onClick={() => void exportCsv('summary')}>
                  Export days CSV
                </button>
                <button type="button" onClick={() => void exportCsv('requests')}>
                  Export requests CSV
                </button>
              </div>
            </div>
            <ErrorNotice message={exportError} />
            <UsageChart
              points={points}
              label={`Cost and requests per day, ${periodLabel}: ${total ? `${formatCost(total.cost, total)}, ${count(total.requests)} requests` : 'loading'}`}
            />
          </section>
        </div>
        <CreditsPanel credits={credits.data} error={credits.error} onChanged={() => void credits.reload()} />
      </div>

      <div className="breakdowns">
        <Breakdown title="By model" rows={summary.data?.model.rows} />
        <Breakdown title="By app" rows={summary.data?.app.rows} empty="(no X-Title)" />
        <Breakdown title="By key" rows={summary.data?.key.rows} />
      </div>

      <section className="panel" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent requests</h2>
        <ErrorNotice message={recent.error} />
        <RecentTable rows={recent.data} keyNames={keyNames} onOpen={setOpened} />
      </section>
      <HubCallsPanel />

      {opened ? <GenerationDialog id={opened} onClose={() => setOpened(null)} /> : null}
    </Screen>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <span className="stat-value" aria-label={label}>
        {value}
      </span>
    </div>
  );
}

const breakdownRows = 8;

function Breakdown({
  title,
  rows,
  empty = '(none)',
}: {
  title: string;
  rows: UsageSummaryRow[] | undefined;
  empty?: string;
}) {
  const sorted = [...(rows ?? [])].sort((a, b) => b.cost - a.cost || b.requests - a.requests);
  const shown = sorted.slice(0, breakdownRows);
  // "By model" heads its first column "Model", as every column of the app is headed: capitalised.
  const groupTitle = title.replace(/^By (\w)/, (_match, first: string) => first.toUpperCase());
  return (
    <section className="panel breakdown" aria-label={title}>
      <h2>{title}</h2>
      {rows && rows.length === 0 ? (
        <p className="muted">No requests in this period.</p>
      ) : (
        // The three breakdowns share their column widths (screens.css), so their figures line up side by side.
        <table className="breakdown-table">
          <TableHead columns={[groupTitle, 'Requests', 'Cost']} numbers={['Requests', 'Cost']} />
          <tbody>
            {shown.map((row) => (
              <tr key={row.group}>
                <td className="breakdown-name" title={row.label || empty}>
                  {row.label || empty}
                </td>
                <td className="number">{count(row.requests)}</td>
                <td className="number">{formatCost(row.cost, row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sorted.length > breakdownRows ? <p className="muted">and {sorted.length - breakdownRows} more</p> : null}
    </section>
  );
}

function RecentTable({
  rows,
  keyNames,
  onOpen,
}: {
  rows: UsageRecord[] | undefined;
  keyNames: Map<string, string>;
  onOpen(id: string): void;
}) {
  if (rows === undefined) return null;
  if (rows.length === 0) {
    return (
      <EmptyState title="No requests in this period">
        <p>Requests through the gateway (and the chat) show up here with their tokens, cost and timing.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <CacheSavings rows={rows} />
      <Table
        label="Recent requests"
        columns={['Time', 'Model', 'App', 'Key', 'Status', 'Tokens in / out', 'Cost', 'Latency']}
        numbers={['Tokens in / out', 'Cost', 'Latency']}
        actions="Details"
      >
        {rows.map((row) => (
          <tr key={row.id}>
            <td>{when(row.created_at)}</td>
            <td className="mono">{row.model}</td>
            <td>{row.app_title ?? row.app_referer ?? ''}</td>
            <td>{keyNames.get(row.key_id) ?? row.key_id}</td>
            <td>
              <span className={row.status >= 400 || row.finish_reason === 'error' ? 'badge state-disabled' : 'badge'}>
                {row.finish_reason === 'cancelled' ? 'cancelled' : row.status}
              </span>
            </td>
            <td className="number">
              {count(row.prompt_tokens)} / {count(row.completion_tokens)}
            </td>
            <td className="number">
              {row.cost === null ? '—' : formatCost(row.cost, row.unpriced)}
              {row.estimated ? ' (estimated)' : ''}
              {row.cache === 'hit' ? (
                <span className="badge">cache hit, saved {formatCost(row.saved_cost ?? 0, false)}</span>
              ) : null}
            </td>
            <td className="number">{count(row.latency_ms)} ms</td>
            <td>
              <button type="button" aria-label={`Details of ${row.id}`} onClick={() => onOpen(row.id)}>
                Details
              </button>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
