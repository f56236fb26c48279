// Spans of the gateway's work, after the GenAI and MCP semantic conventions: one SERVER span per request (the
// gateway serves the caller, whose own client span, when it sent a `traceparent`, is its parent), a CLIENT child per
// upstream attempt (an inference call to a provider, whose `traceparent` it sends), and a SERVER span per MCP hub
// tool call. Loaded with the OpenTelemetry packages, only when tracing is configured.

import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { AttemptWatch, GenerationWatch, GenerationWatcher, WatchedGeneration } from '../gateway/index.js';
import type { HubToolCall } from '../mcp/index.js';
import type { UsageRecord } from '../../shared/api/index.js';
import { inputMessagesOf, outputMessagesOf } from './message-content.js';

const propagator = new W3CTraceContextPropagator();

/** The conventions' operation name of a route: chat, embeddings or text_completion. */
export function operationOf(route: string): string {
  if (route.includes('embeddings') || route.includes('embedContent')) return 'embeddings';
  if (/\/completions$/.test(route) && !route.includes('chat')) return 'text_completion';
  return 'chat';
}

/** The caller's trace, continued; the root context when it sent no (valid) `traceparent`. */
function parentOf(traceParent: string | null): Context {
  if (!traceParent) return ROOT_CONTEXT;
  return propagator.extract(
    ROOT_CONTEXT,
    { traceparent: traceParent },
    {
      get: (carrier, key) => carrier[key as 'traceparent'],
      keys: (carrier) => Object.keys(carrier),
    },
  );
}

/** The `traceparent` (and `tracestate`) that make `span` the parent of what the upstream records. */
function headersContinuing(span: Span): Record<string, string> {
  const headers: Record<string, string> = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, {
    set: (carrier, key, value) => {
      carrier[key] = value;
    },
  });
  return headers;
}

const requestParameters: [string, string][] = [
  ['temperature', 'gen_ai.request.temperature'],
  ['top_p', 'gen_ai.request.top_p'],
  ['top_k', 'gen_ai.request.top_k'],
  ['max_tokens', 'gen_ai.request.max_tokens'],
  ['max_completion_tokens', 'gen_ai.request.max_tokens'],
  ['frequency_penalty', 'gen_ai.request.frequency_penalty'],
  ['presence_penalty', 'gen_ai.request.presence_penalty'],
  ['seed', 'gen_ai.request.seed'],
  ['n', 'gen_ai.request.choice.count'],
];

function requestAttributes(request: unknown): Attributes {
  const attributes: Attributes = {};
  if (typeof request !== 'object' || request === null) return attributes;
  const fields = request as Record<string, unknown>;
  for (const [field, name] of requestParameters) {
    const value = fields[field];
    if (typeof value === 'number') attributes[name] = value;
  }
  const stop = typeof fields.stop === 'string' ? [fields.stop] : fields.stop;
  if (Array.isArray(stop) && stop.every((item) => typeof item === 'string')) {
    attributes['gen_ai.request.stop_sequences'] = stop as string[];
  }
  if (typeof fields.encoding_format === 'string')
    attributes['gen_ai.request.encoding_formats'] = [fields.encoding_format];
  return attributes;
}

/** An attempt's `error.type`: the status the upstream answered, else the one its failure maps to, else its class. */
export function errorTypeOf(error: unknown): string {
  const fields = error as { upstreamStatus?: unknown; status?: unknown } | null;
  if (typeof fields?.upstreamStatus === 'number') return String(fields.upstreamStatus);
  if (typeof fields?.status === 'number') return String(fields.status);
  if (error instanceof Error) return error.name;
  return '_OTHER';
}

function usageAttributes(row: UsageRecord): Attributes {
  const attributes: Attributes = {
    'gen_ai.response.model': row.model,
    'gen_ai.response.id': row.id,
    'gen_ai.usage.input_tokens': row.prompt_tokens,
    'gen_ai.usage.output_tokens': row.completion_tokens,
    'http.response.status_code': row.status,
  };
  if (row.provider) attributes['gen_ai.provider.name'] = row.provider;
  if (row.finish_reason) attributes['gen_ai.response.finish_reasons'] = [row.finish_reason];
  if (row.cached_tokens > 0) attributes['gen_ai.usage.cache_read.input_tokens'] = row.cached_tokens;
  if (row.reasoning_tokens > 0) attributes['switchyard.usage.reasoning_tokens'] = row.reasoning_tokens;
  if (row.cost !== null) attributes['switchyard.cost_usd'] = row.cost;
  if (row.ttft_ms !== null) attributes['switchyard.time_to_first_token_ms'] = row.ttft_ms;
  if (row.estimated) attributes['switchyard.usage.estimated'] = true;
  return attributes;
}

export interface SpanOptions {
  captureContent: boolean;
}

/** A span named as the GenAI conventions name inference spans: `{operation} {model}`. */
function startInference(
  tracer: Tracer,
  kind: SpanKind,
  operation: string,
  model: string,
  parent: Context,
  attributes: Attributes,
): Span {
  const named = { 'gen_ai.operation.name': operation, 'gen_ai.request.model': model, ...attributes };
  return tracer.startSpan(`${operation} ${model}`, { kind, attributes: named }, parent);
}

/** The watcher that traces every generation with `tracer`. */
export function generationTracer(tracer: Tracer, options: SpanOptions): GenerationWatcher {
  return {
    started(generation: WatchedGeneration): GenerationWatch {
      const operation = operationOf(generation.route);
      const requested = generation.model;
      const span = startInference(tracer, SpanKind.SERVER, operation, requested, parentOf(generation.traceParent), {
        'http.route': generation.route,
        'switchyard.generation.id': generation.id,
        'switchyard.key.id': generation.keyId,
        'switchyard.stream': generation.stream,
        ...requestAttributes(generation.request),
      });
      if (options.captureContent) {
        const input = inputMessagesOf(generation.request);
        if (input) span.setAttribute('gen_ai.input.messages', JSON.stringify(input));
      }
      const parent = trace.setSpan(ROOT_CONTEXT, span);
      const open = new Set<Span>();
      let attempts = 0;
      return {
        attempt(model: string, provider: string): AttemptWatch {
          attempts += 1;
          const attemptSpan = startInference(tracer, SpanKind.CLIENT, operation, model, parent, {
            'gen_ai.provider.name': provider,
            'switchyard.attempt': attempts,
            'switchyard.fallback': model !== requested,
          });
          open.add(attemptSpan);
          const end = () => {
            open.delete(attemptSpan);
            attemptSpan.end();
          };
          return {
            upstreamHeaders: headersContinuing(attemptSpan),
            answered(answer?: unknown) {
              if (options.captureContent) {
                const output = outputMessagesOf(answer);
                if (output) span.setAttribute('gen_ai.output.messages', JSON.stringify(output));
              }
              end();
            },
            failed(error: unknown) {
              attemptSpan.setAttribute('error.type', errorTypeOf(error));
              attemptSpan.setStatus({ code: SpanStatusCode.ERROR });
              end();
            },
          };
        },
        ended(row: UsageRecord) {
          span.setAttributes(usageAttributes(row));
          if (row.status >= 400 || row.error) {
            span.setAttribute('error.type', row.status >= 400 ? String(row.status) : (row.finish_reason ?? '_OTHER'));
            // The usage row's message is secret-free by contract (shared/api/usage.ts).
            span.setStatus({ code: SpanStatusCode.ERROR, ...(row.error ? { message: row.error } : {}) });
          }
          for (const attemptSpan of open) attemptSpan.end();
          open.clear();
          span.end();
        },
      };
    },
  };
}

/** One tool call through the MCP hub, recorded after it ended (the hub reports start time and duration). */
export function recordHubToolCall(tracer: Tracer, call: HubToolCall): void {
  const span = tracer.startSpan(
    `tools/call ${call.tool}`,
    {
      kind: SpanKind.SERVER,
      startTime: call.createdAt,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.tool,
        'switchyard.mcp.server': call.server,
        'switchyard.key.id': call.keyId,
        ...(call.client ? { 'switchyard.mcp.client': call.client } : {}),
      },
    },
    ROOT_CONTEXT,
  );
  if (call.error !== null) {
    // The MCP conventions' value for a result with isError set; the tool's text may hold the caller's data.
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(call.createdAt + call.durationMs);
}
