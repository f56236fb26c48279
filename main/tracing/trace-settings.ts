// Whether and where spans are exported, read from the standard OpenTelemetry variables so that a team's existing
// collector settings work unchanged. Plain parsing with no OpenTelemetry import: an unconfigured process decides
// here, for the price of a few lookups, that it loads nothing more.

export type TraceProtocol = 'http/protobuf' | 'http/json';

export interface TraceSettings {
  /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  url: string;
  protocol: TraceProtocol;
  /** OTEL_EXPORTER_OTLP_HEADERS, with OTEL_EXPORTER_OTLP_TRACES_HEADERS winning on a shared name. */
  headers: Record<string, string>;
  serviceName: string;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: prompts and answers go into spans. */
  captureContent: boolean;
  /** Something the settings could not honour as written (an unsupported protocol), said once at start. */
  warnings: string[];
}

export const defaultServiceName = 'switchyard';

type Environment = Record<string, string | undefined>;

function valueOf(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** The trace export settings, or null when no endpoint is set (or OTEL_SDK_DISABLED=true): tracing stays off. */
export function traceSettingsFrom(env: Environment): TraceSettings | null {
  if (valueOf(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return null;
  const tracesEndpoint = valueOf(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = valueOf(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (!tracesEndpoint && !endpoint) return null;
  const warnings: string[] = [];
  const url = tracesEndpoint ?? `${endpoint!.replace(/\/+$/, '')}/v1/traces`;
  const asked = valueOf(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? valueOf(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  let protocol: TraceProtocol = 'http/protobuf';
  if (asked === 'http/json') protocol = 'http/json';
  else if (asked !== undefined && asked !== 'http/protobuf') {
    warnings.push(`OTLP protocol "${asked}" is not supported for traces: exporting with http/protobuf.`);
  }
  return {
    url,
    protocol,
    headers: {
      ...parseHeaders(valueOf(env, 'OTEL_EXPORTER_OTLP_HEADERS'), warnings),
      ...parseHeaders(valueOf(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'), warnings),
    },
    serviceName: valueOf(env, 'OTEL_SERVICE_NAME') ?? defaultServiceName,
    captureContent: valueOf(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true',
    warnings,
  };
}

/**
 * `name=value,name2=value2` as the OTLP exporter specification writes headers: values percent-decoded (a Basic
 * credential's `=` padding may be written `%3D` or as is). A malformed pair is left out and named without its value.
 */
export function parseHeaders(text: string | undefined, warnings: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!text) return headers;
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    const name = equals > 0 ? pair.slice(0, equals).trim() : '';
    if (!name) {
      warnings.push('An OTLP header without a name was left out.');
      continue;
    }
    const raw = pair.slice(equals + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // not percent-encoded: taken as written
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
}
