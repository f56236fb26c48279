// Tracing as the app wires it: a watcher for the gateway and a recorder for MCP hub calls that stand in for the
// OpenTelemetry SDK while it loads. The SDK (several megabytes of modules) is imported only here, dynamically, and
// only when traceSettingsFrom found an endpoint: a process without one never loads it.

import type { Logger } from '../common/index.js';
import type { GenerationWatcher } from '../gateway/index.js';
import type { HubToolCall } from '../mcp/index.js';
import type { LoadedTracing } from './otlp-export.js';
import type { TraceSettings } from './trace-settings.js';

export interface Tracing {
  readonly watcher: GenerationWatcher;
  hubToolCall(call: HubToolCall): void;
  /** Settles once the SDK is loaded (or failed to load): a gateway listens after it, so no request goes untraced. */
  readonly ready: Promise<void>;
  /** Exports the spans still queued and stops; waits for the SDK if it is still loading. */
  close(): Promise<void>;
}

export function startTracing(settings: TraceSettings, logger: Logger): Tracing {
  for (const warning of settings.warnings) logger.warn(warning);
  let loaded: LoadedTracing | undefined;
  const ready = import('./otlp-export.js').then(
    ({ createOtlpTracing }) => {
      loaded = createOtlpTracing(settings, logger);
      logger.info({ url: settings.url, protocol: settings.protocol }, 'exporting traces over OTLP');
    },
    (error: unknown) => logger.error({ err: error }, 'loading OpenTelemetry failed: traces are not exported'),
  );
  return {
    watcher: { started: (generation) => loaded?.watcher.started(generation) },
    hubToolCall: (call) => loaded?.hubToolCall(call),
    ready,
    async close() {
      await ready;
      await loaded?.shutdown();
    },
  };
}
