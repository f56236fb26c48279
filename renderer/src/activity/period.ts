// The periods the activity screen shows, and the UTC days in one (the usage log groups by UTC day).

import type { UsageSummaryRow } from '../../../shared/api/index.js';
import type { DayPoint } from './usage-chart.js';

export const periods = [
  { id: '7d', label: '7 days', days: 7 },
  { id: '30d', label: '30 days', days: 30 },
  { id: '90d', label: '90 days', days: 90 },
  { id: 'all', label: 'All time', days: null },
] as const;

export type PeriodId = (typeof periods)[number]['id'];

const dayMs = 86_400_000;

/** 00:00 UTC of the first day of the period (today counts as one), or undefined for all time. */
export function periodStart(id: PeriodId, now = Date.now()): number | undefined {
  const days = periods.find((period) => period.id === id)?.days ?? null;
  if (days === null) return undefined;
  return Math.floor(now / dayMs) * dayMs - (days - 1) * dayMs;
}

/** One point per day from `since` (or the first day with usage) to today, days without usage at 0. */
export function dayPoints(rows: UsageSummaryRow[], since: number | undefined, now = Date.now()): DayPoint[] {
  const byDay = new Map(rows.map((row) => [Date.parse(`${row.group}T00:00:00Z`), row]));
  const first = since ?? Math.min(...byDay.keys(), Math.floor(now / dayMs) * dayMs);
  const points: DayPoint[] = [];
  for (let day = first; day <= now; day += dayMs) {
    const row = byDay.get(day);
    points.push({ day: day / 1000, cost: row?.cost ?? 0, requests: row?.requests ?? 0 });
  }
  return points;
}
