// The OpenTelemetry SDK side of tracing: a tracer provider with a batch span processor (a bounded queue, exported
// in the background, flushed on shutdown) and an OTLP/HTTP exporter built the way the official exporters build
// theirs, protobuf or JSON by the serializer it is given. Imported dynamically, only when tracing is configured.

import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from '@opentelemetry/otlp-transformer';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from '../common/index.js';
import type { GenerationWatcher } from '../gateway/index.js';
import type { HubToolCall } from '../mcp/index.js';
import { generationTracer, recordHubToolCall } from './generation-spans.js';
import type { TraceSettings } from './trace-settings.js';

/** Tracing as the app uses it, once the SDK is loaded. */
export interface LoadedTracing {
  watcher: GenerationWatcher;
  hubToolCall(call: HubToolCall): void;
  /** Exports what is queued, then stops. */
  shutdown(): Promise<void>;
}

const exportFailureLogEveryMs = 60_000;

function otlpExporter(settings: TraceSettings): SpanExporter {
  const json = settings.protocol === 'http/json';
  const options = convertLegacyHttpOptions({ url: settings.url, headers: settings.headers }, 'TRACES', 'v1/traces', {
    'Content-Type': json ? 'application/json' : 'application/x-protobuf',
  });
  return new OTLPExporterBase<ReadableSpan[]>(
    createOtlpHttpExportDelegate(
      options,
      json ? JsonTraceSerializer : ProtobufTraceSerializer,
      json ? 'otlp_http_json_span_exporter' : 'otlp_http_span_exporter',
      TraceExporterMetricsHelper,
      undefined,
    ),
  );
}

/** `exporter`, its failures logged (at most once a minute: a collector that is down must not flood the log). */
function loggingFailures(exporter: SpanExporter, settings: TraceSettings, logger: Logger): SpanExporter {
  let lastLogged = -Infinity;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS && Date.now() - lastLogged >= exportFailureLogEveryMs) {
          lastLogged = Date.now();
          logger.warn(
            { err: result.error, url: settings.url },
            `exporting ${spans.length} spans failed; they are dropped`,
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

export function createOtlpTracing(settings: TraceSettings, logger: Logger): LoadedTracing {
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': settings.serviceName })),
    // Batched in the background; the queue is bounded (2048 spans unless OTEL_BSP_MAX_QUEUE_SIZE says otherwise)
    // and drops what does not fit rather than hold memory when the collector is slow or down.
    spanProcessors: [new BatchSpanProcessor({ exporter: loggingFailures(otlpExporter(settings), settings, logger) })],
  });
  const tracer = provider.getTracer('switchyard');
  return {
    watcher: generationTracer(tracer, { captureContent: settings.captureContent }),
    hubToolCall: (call) => recordHubToolCall(tracer, call),
    shutdown: () => provider.shutdown(),
  };
}
