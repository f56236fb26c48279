// Cost per day as bars and requests per day as a line, with uPlot: a small canvas chart (about 50 kB) that draws
// nothing through inline style attributes, so the UI's CSP (no 'unsafe-inline') holds. Colours come from the
// theme's CSS variables and follow the theme: the system's light or dark setting, or the one chosen in the app. The
// frame has a fixed height: nothing around it moves when it draws.

import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMoney, formatUsdExactly } from '../../../shared/api/index.js';
import { count } from '../ui/format.js';

export interface DayPoint {
  /** 00:00 UTC of the day, Unix seconds. */
  day: number;
  cost: number;
  requests: number;
}

const chartHeight = 220;
const day = 86_400;
const dayIncrements = [day, 2 * day, 7 * day, 14 * day, 30 * day, 91 * day, 365 * day];
/** Requests come whole: no 0.5 ticks. */
const wholeIncrements = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000, 100_000, 1_000_000];
const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The theme's colours as the canvas needs them. The variables hold light-dark(…) pairs, which a canvas does not
 * understand (it would draw in its default black, invisible on the dark theme): each is resolved by giving it to a
 * hidden element's colour and reading the computed rgb(…) back.
 */
function themeColors() {
  const probe = document.createElement('span');
  probe.hidden = true;
  document.body.append(probe);
  const resolve = (name: string) => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  };
  const colors = {
    accent: resolve('--accent'),
    muted: resolve('--fg-muted'),
    border: resolve('--border'),
    grid: resolve('--chart-grid'),
    ok: resolve('--ok'),
    panel: resolve('--bg-raised'),
  };
  probe.remove();
  return colors;
}

/** The theme's colours, read again when the system switches between light and dark or the app's theme changes. */
function useThemeColors() {
  const [colors, setColors] = useState(themeColors);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => setColors(themeColors());
    query.addEventListener('change', update);
    // The theme chosen in the app is `data-theme` on <html> (shell/theme.ts).
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      query.removeEventListener('change', update);
      observer.disconnect();
    };
  }, []);
  return colors;
}

export function UsageChart({ points, label }: { points: DayPoint[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const colors = useThemeColors();

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const totals = {
      cost: points.reduce((sum, point) => sum + point.cost, 0),
      requests: points.reduce((sum, point) => sum + point.requests, 0),
    };
    const axis = { stroke: colors.muted, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid } };
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height: chartHeight,
      // Days are UTC days: label them as such, whatever the local zone.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      scales: {
        // Half a day of room at each end, so the first and last bars are whole.
        x: { time: true, range: (_plot, min, max) => [min - day / 2, max + day / 2] },
        usd: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
        requests: { range: (_plot, _min, max) => [0, max > 0 ? Math.ceil(max * 1.15) : 1] },
      },
      series: [
        {
          label: 'Day',
          // Without a day under the pointer, the legend shows the whole period's totals rather than blanks.
          value: (_plot, seconds) =>
            seconds == null ? 'All days' : new Date(seconds * 1000).toISOString().slice(0, 10),
        },
        {
          label: 'Cost',
          scale: 'usd',
          stroke: colors.accent,
          fill: colors.accent,
          width: 0,
          paths: uPlot.paths.bars!({ size: [0.6, 48] }),
          points: { show: false },
          value: (_plot, usd) => formatMoney(usd ?? totals.cost),
        },
        {
          label: 'Requests',
          scale: 'requests',
          stroke: colors.ok,
          width: 2,
          points: { show: true, size: 5, fill: colors.panel },
          value: (_plot, requests) => count(requests ?? totals.requests),
        },
      ],
      axes: [
        {
          ...axis,
          incrs: dayIncrements,
          values: (_plot, ticks) => ticks.map((seconds) => dayLabel.format(new Date(seconds * 1000))),
        },
        { ...axis, scale: 'usd', size: 84, values: (_plot, ticks) => ticks.map((tick) => formatUsdExactly(tick)) },
        { ...axis, scale: 'requests', side: 1, size: 50, incrs: wholeIncrements, grid: { show: false } },
      ],
      cursor: { drag: { x: false, y: false } },
    };
    const data: uPlot.AlignedData = [
      points.map((point) => point.day),
      points.map((point) => point.cost),
      points.map((point) => point.requests),
    ];
    const plot = new uPlot(options, data, element);
    const observer = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 200), height: chartHeight }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [points, colors]);

  return (
    <figure className="chart" aria-label={label}>
      <div ref={container} className="chart-canvas" role="img" aria-label={label} />
    </figure>
  );
}
