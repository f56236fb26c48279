// A run's measurements → the figures of the report (each next to its target) and the contenders side by side.
// The targets: the gateway's throughput at least 0.7 of the bare Node proxy's, whole and streamed, at 50 and 200
// connections; its added p50 within 0.1 ms of the proxy's; its streamed first token's p99 within 5 ms of the
// proxy's; idle RSS at most 80 MB. Requests per second are shown for reference, Portkey's beside them: the bare
// proxy itself is the ceiling here, so a multiple of another gateway or a fixed rate is no target.

import type { TimingSummary } from './load-generator.js';
import type { Contender, Figure } from './report.js';
import type { Measured } from './runner.js';
import type { TargetName } from './targets.js';

export type LatencyByMode = Record<
  string,
  Record<string, { total: TimingSummary; firstByte: TimingSummary; rps: number }>
>;

export interface RunMeasurements {
  latency: LatencyByMode;
  /** By cell (`stream@50`, …), then by contender. */
  throughput: Record<string, Record<string, Measured>>;
  /** The contenders that ran, in the side-by-side table's order. */
  contenders: TargetName[];
  /** `serve --workers N`'s N, when it ran. */
  workers: number | null;
  rss: {
    startup: number;
    idle: number;
    idleAfterSeconds: number;
    peak: number;
    portkeyIdle: number | null;
    portkeyPeak: number | null;
  };
  soak: { seconds: number; floorMb: number; growthMb: number };
  disconnectsMs: number[];
  usage: { rows: number; requests: number };
}

type Field = 'total' | 'firstByte';
type Quantile = 'p50' | 'p99';

export function benchFigures(run: RunMeasurements): Figure[] {
  const { latency, throughput, rss } = run;
  const portkey = run.contenders.includes('portkey');
  /** `name`'s latency minus `base`'s: what `name` adds over calling `base`. */
  const over = (mode: string, name: string, base: string, field: Field, quantile: Quantile) => {
    const through = latency[mode]?.[name]?.[field][quantile];
    const floor = latency[mode]?.[base]?.[field][quantile];
    return through === undefined || floor === undefined ? null : through - floor;
  };
  const rps = (cell: string, name: string) => throughput[cell]?.[name]?.requestsPerSecond ?? null;
  const modeText = (mode: string, field: Field) =>
    mode === 'whole' ? 'non-streaming' : field === 'firstByte' ? 'streaming, time to first token' : 'streaming, total';
  return [
    ...(['whole', 'stream'] as const).flatMap((mode) =>
      (mode === 'whole' ? (['total'] as const) : (['firstByte', 'total'] as const)).flatMap((field) =>
        (['p50', 'p99'] as const).map((quantile): Figure => ({
          id: `added-${mode}-${field}-${quantile}`,
          label: `Added latency ${quantile}, ${modeText(mode, field)} (50 conns)`,
          unit: 'ms',
          switchyard: over(mode, 'switchyard', 'direct', field, quantile),
          portkey: portkey ? (over(mode, 'portkey', 'direct', field, quantile) ?? undefined) : undefined,
          comparison: 'max',
          target: quantile === 'p50' ? 1 : 5,
        })),
      ),
    ),
    ...(['whole', 'stream'] as const).map((mode): Figure => ({
      id: `added-over-bare-${mode}-p50`,
      label: `Added latency p50 beyond the bare Node proxy's, ${modeText(mode, 'total')} (50 conns)`,
      unit: 'ms',
      switchyard: over(mode, 'switchyard', 'bare', 'total', 'p50'),
      comparison: 'max',
      target: 0.1,
    })),
    {
      id: 'added-over-bare-stream-firstByte-p99',
      label: `Added latency p99 beyond the bare Node proxy's, ${modeText('stream', 'firstByte')} (50 conns)`,
      unit: 'ms',
      switchyard: over('stream', 'switchyard', 'bare', 'firstByte', 'p99'),
      comparison: 'max',
      target: 5,
    },
    ...(['stream', 'whole'] as const).flatMap((mode) =>
      [50, 200].map((connections): Figure => {
        const floor = rps(`${mode}@${connections}`, 'bare');
        const ours = rps(`${mode}@${connections}`, 'switchyard');
        return {
          id: `rps-over-bare-${mode}-${connections}`,
          label: `${mode === 'stream' ? 'Streamed' : 'Non-streamed'} throughput as a share of the bare Node proxy's (${connections} conns, one process)`,
          unit: '×',
          switchyard: floor && ours !== null ? ours / floor : null,
          comparison: 'min',
          target: 0.7,
        };
      }),
    ),
    ...(['stream', 'whole'] as const).flatMap((mode) =>
      (run.workers ? (['switchyard', 'workers'] as const) : (['switchyard'] as const)).flatMap((name) =>
        [50, 200].map((connections): Figure => ({
          id: `rps-${mode}-${connections}${name === 'workers' ? '-workers' : ''}`,
          label:
            `${mode === 'stream' ? 'Streamed' : 'Non-streamed'} requests per second (${connections} conns` +
            `${name === 'workers' ? `, --workers ${run.workers}` : ', one process'})`,
          unit: 'req/s',
          switchyard: rps(`${mode}@${connections}`, name),
          portkey: portkey ? rps(`${mode}@${connections}`, 'portkey') : undefined,
          comparison: 'info',
        })),
      ),
    ),
    {
      id: 'rss-startup',
      label: 'RSS 2 s after start (headless `switchyard serve`)',
      unit: 'MB',
      switchyard: rss.startup,
      comparison: 'info',
    },
    {
      id: 'rss-idle',
      label: `RSS at idle (headless \`switchyard serve\`, idle ${rss.idleAfterSeconds} s since its start)`,
      unit: 'MB',
      switchyard: rss.idle,
      portkey: rss.portkeyIdle ?? undefined,
      comparison: 'max',
      target: 80,
    },
    {
      id: 'rss-load',
      label: 'RSS under load (peak)',
      unit: 'MB',
      switchyard: rss.peak,
      portkey: rss.portkeyPeak ?? undefined,
      comparison: 'info',
    },
    {
      id: 'soak-growth',
      label: `RSS low-water mark, second half of the ${run.soak.seconds} s soak minus the first`,
      unit: 'MB',
      switchyard: run.soak.growthMb,
      comparison: 'max',
      target: Math.round(run.soak.floorMb / 10),
      targetText: `flat (≤ 10 % of ${Math.round(run.soak.floorMb)} MB)`,
    },
    {
      id: 'disconnect',
      label: 'Caller disconnect → upstream request closed (max of trials)',
      unit: 'ms',
      switchyard: Math.max(...run.disconnectsMs),
      comparison: 'max',
      target: 100,
    },
    {
      id: 'usage-rows',
      label: `Usage rows written for ${run.usage.requests.toLocaleString('en-US')} gateway requests`,
      unit: 'rows',
      switchyard: run.usage.rows,
      comparison: 'min',
      target: run.usage.requests,
      targetText: 'one per request',
    },
  ];
}

/**
 * Every contender side by side: throughput, the CPU its own process spent per request (at 200 connections, where
 * each is saturated), and the latency it adds over calling the upstream directly.
 */
export function benchContenders(run: RunMeasurements): Contender[] {
  const { latency, throughput } = run;
  const contenderNames: Record<TargetName, string> = {
    direct: 'Upstream, called directly',
    bare: 'Bare Node proxy (node:http + undici, bytes piped)',
    switchyard: 'Switchyard (one process)',
    workers: `Switchyard (--workers ${run.workers})`,
    portkey: 'Portkey',
  };
  return run.contenders.map((name) => {
    const cpuUs = (mode: string) => {
      const ms = throughput[`${mode}@200`]?.[name]?.cpuMsPerRequest;
      return ms === undefined ? null : ms * 1000;
    };
    const addedP50 = (mode: string) => {
      const through = latency[mode]?.[name]?.total.p50;
      const direct = latency[mode]?.direct?.total.p50;
      return name === 'direct' || through === undefined || direct === undefined ? null : through - direct;
    };
    return {
      name: contenderNames[name],
      rps: Object.fromEntries(
        Object.keys(throughput).map((cell) => [cell, throughput[cell]?.[name]?.requestsPerSecond ?? null]),
      ),
      cpuUsPerRequest: { whole: cpuUs('whole'), stream: cpuUs('stream') },
      addedP50Ms: { whole: addedP50('whole'), stream: addedP50('stream') },
    };
  });
}
