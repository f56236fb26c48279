import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { WatchedGeneration } from '../gateway/index.js';
import { errorTypeOf, generationTracer, operationOf } from './generation-spans.js';

function traced() {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const provider = new TracerProvider({ spanProcessors: [processor] });
  return { exporter, processor, watcher: generationTracer(provider.getTracer('test'), { captureContent: false }) };
}

const generation = (traceParent: string | null): WatchedGeneration => ({
  id: 'gen-1',
  route: '/v1/chat/completions',
  keyId: 'key-1',
  model: 'up/echo-1',
  stream: false,
  traceParent,
  request: { model: 'up/echo-1', messages: [{ role: 'user', content: 'secret' }] },
});

describe('generation spans', () => {
  it('start a new trace when the caller sent a malformed traceparent', async () => {
    const { exporter, processor, watcher } = traced();
    const watch = watcher.started(generation('00-not-a-trace-01'));
    const attempt = watch?.attempt?.('up/echo-1', 'up');
    attempt?.answered();
    expect(attempt?.upstreamHeaders?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await processor.forceFlush();
    const [attemptSpan] = exporter.getFinishedSpans();
    expect(attemptSpan?.parentSpanContext?.traceId).toBe(attempt?.upstreamHeaders?.traceparent?.split('-')[1]);
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain('secret');
  });

  it('name operations by route, and errors by the upstream status first', () => {
    expect(operationOf('/v1/chat/completions')).toBe('chat');
    expect(operationOf('/v1/messages')).toBe('chat');
    expect(operationOf('/api/v1/embeddings')).toBe('embeddings');
    expect(operationOf('/v1/completions')).toBe('text_completion');
    expect(errorTypeOf({ status: 502, upstreamStatus: 429 })).toBe('429');
    expect(errorTypeOf({ status: 504 })).toBe('504');
    expect(errorTypeOf(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeOf('odd')).toBe('_OTHER');
  });
});
