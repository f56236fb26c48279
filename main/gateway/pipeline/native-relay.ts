// A generation whose caller and upstream speak the same protocol (Anthropic Messages to an anthropic-kind provider,
// the Gemini API to a google-kind one) goes through untranslated: the caller's body with the upstream's model
// name, the upstream's answer or events as they came (the model relabelled), so nothing the protocol can say is
// lost on the way (thinking signatures, cache_control, citations, server tools, beta features). The gateway only
// reads along: usage and finish reason for the usage row and cost, the text for an estimate when the caller
// leaves. Keys, rules, retries before the first byte, keep-alives and the usage row are as for every generation.
// A legacy completion is relayed the same way (its upstream's events are its caller's): answerRelayedWhole() and
// relayEvents() take any attempt whose answer is a whole object or a stream of events.

import { ApiError, type ChatRequest, type ProviderKind, type Usage } from '../../../shared/api/index.js';
import type { NativeAnswer, NativeCall, UpstreamTarget } from '../../providers/index.js';
import {
  attemptGeneration,
  type AttemptCall,
  type Generation,
  type GenerationContext,
  type RoutedRequest,
} from './generation.js';
import type { StreamContext } from './stream-relay.js';
import type { Outcome, RawStreamOutput } from '../http/exchange.js';
import { failOpenStream, openWhenSilent, type StreamEnding } from './open-stream.js';
import { answerWith, failedBeforeAnswer } from './whole-answer.js';
import { estimateUsage, GeneratedText } from './usage-estimate.js';

/** What the relay learns from reading a native answer or stream along. */
export interface NativeReading {
  /** The latest usage the upstream reported (protocols report it cumulatively). */
  usage: Usage | null;
  finishReason: string | null;
  /** Text, reasoning and tool input generated so far (for an estimate when the caller leaves). */
  generated: GeneratedText;
}

/** One protocol as the relay needs it. */
export interface NativeProtocol {
  /** The provider kind that speaks this protocol. */
  kind: ProviderKind;
  /** Reads one stream event's payload, or a whole answer, into `reading`. */
  read(payload: Record<string, unknown>, reading: NativeReading): void;
  /** The payload as the caller gets it (the model named as the caller named it). */
  relabel(payload: Record<string, unknown>, model: string): Record<string, unknown>;
  /**
   * The SSE text of one event (as the upstream named it). `data` is the upstream's own text of the payload when
   * relabel left it unchanged, so the caller can get the event byte for byte.
   */
  encode(payload: Record<string, unknown>, event: string | undefined, data?: string): string;
  /** The SSE text of a failure once the stream is open. */
  errorEvent(error: ApiError): string;
  /** The SSE text that ends a stream normally ('' when the last event says it all). */
  end(): string;
}

/**
 * Whether the generation's model is served by a provider of `kind` (so the request can pass through untranslated).
 * A request that also names fallbacks is translated, whatever kind they are; a model that cannot be resolved is
 * too, and fails there with the usual error.
 */
export async function servedNatively<Request extends RoutedRequest>(
  generation: Generation<Request>,
  context: GenerationContext,
  kind: ProviderKind,
) {
  if (generation.request.models?.some((model) => model !== generation.request.model)) return false;
  try {
    const { adapter } = await context.providers.resolve(generation.request.model);
    return adapter.kind === kind && adapter.native !== undefined;
  } catch {
    return false;
  }
}

/** An upstream's answer relayed as it came: one JSON object, or its events (a native call's, a legacy completion's). */
export type RelayedAnswer =
  { whole: Record<string, unknown> } | { events: AsyncIterable<string | { event?: string; data: string }> };

/** The attempt of a native call: the caller's request in the upstream's own protocol (NativeCall). */
function nativeAttempt(callFor: (target: UpstreamTarget) => NativeCall): AttemptCall<NativeAnswer> {
  return ({ adapter, target }, _request, signal) => {
    if (!adapter.native) {
      throw new ApiError(502, `Provider "${target.provider.id}" cannot take this protocol untranslated.`);
    }
    return adapter.native(callFor(target), target, signal);
  };
}

function newReading(): NativeReading {
  return { usage: null, finishReason: null, generated: new GeneratedText() };
}

function parsePayload(data: string, provider: string): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    throw new ApiError(502, `Provider "${provider}" sent a stream event that is not JSON.`);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new ApiError(502, `Provider "${provider}" sent a stream event that is not a JSON object.`);
  }
  return payload as Record<string, unknown>;
}

/** A whole native answer: the upstream's body, relabelled; the usage row is written. */
export function answerNativeWhole(
  generation: Generation,
  context: GenerationContext,
  protocol: NativeProtocol,
  callFor: (target: UpstreamTarget) => NativeCall,
): Promise<Outcome<Record<string, unknown>>> {
  return answerRelayedWhole(generation, context, protocol, nativeAttempt(callFor));
}

/** A whole answer relayed as it came: the upstream's body, relabelled; the usage row is written. */
export function answerRelayedWhole<Request extends RoutedRequest>(
  generation: Generation<Request>,
  context: GenerationContext,
  protocol: NativeProtocol,
  call: AttemptCall<RelayedAnswer, Request>,
): Promise<Outcome<Record<string, unknown>>> {
  return answerWith(generation, context, call, ({ value, model }) => {
    if (!('whole' in value)) throw new ApiError(502, 'The provider streamed an answer asked whole.');
    const { recorder } = generation;
    const reading = newReading();
    protocol.read(value.whole, reading);
    recorder.addCost(reading.usage);
    recorder.record({ status: 200, finishReason: reading.finishReason, usage: reading.usage });
    return protocol.relabel(value.whole, model);
  });
}

/**
 * Relays a native stream to `output`. Until the stream opens a failure is the returned Outcome; once open, it is
 * the protocol's error event. Resolves with undefined once the stream was answered.
 */
export function relayNativeStream(
  generation: Generation<ChatRequest>,
  context: StreamContext,
  protocol: NativeProtocol,
  callFor: (target: UpstreamTarget) => NativeCall,
  output: RawStreamOutput,
): Promise<Outcome<never> | undefined> {
  const estimate = (generated: GeneratedText) => estimateUsage(generation.request, generated);
  return relayEvents(generation, context, protocol, nativeAttempt(callFor), output, estimate);
}

/**
 * Relays the events an attempt answers with to `output`, as relayNativeStream() does; `estimate` is the usage
 * recorded when the caller leaves before the upstream reported any.
 */
export async function relayEvents<Request extends RoutedRequest>(
  generation: Generation<Request>,
  context: StreamContext,
  protocol: NativeProtocol,
  call: AttemptCall<RelayedAnswer, Request>,
  output: RawStreamOutput,
  estimate: (generated: GeneratedText) => Promise<Usage>,
): Promise<Outcome<never> | undefined> {
  const { recorder, signal } = generation;
  const openEarly = openWhenSilent(signal, context.keepAliveMs, output, () => output.open());
  const reading = newReading();
  const ending: StreamEnding = {
    usage: () => reading.usage,
    estimate: () => estimate(reading.generated),
    abandon: () => output.abandon(),
    fail: (apiError) => output.end(protocol.errorEvent(apiError)),
  };
  const failed = (error: unknown) => failOpenStream(generation, context, ending, error);
  let answered;
  try {
    answered = await attemptGeneration(generation, context, call);
  } catch (error) {
    if (!output.opened) return failedBeforeAnswer(generation, context, error);
    await failed(error);
    return undefined;
  } finally {
    clearTimeout(openEarly);
  }
  if (!output.opened) output.open();
  const { value, model } = answered;
  try {
    if (!('events' in value)) throw new ApiError(502, 'The provider answered whole a request asked as a stream.');
    const provider = recorder.provider ?? '';
    for await (const event of value.events) {
      const { event: name, data } = typeof event === 'string' ? { event: undefined, data: event } : event;
      const payload = parsePayload(data, provider);
      const before = reading.generated.length;
      protocol.read(payload, reading);
      if (reading.generated.length > before) recorder.markFirstToken();
      const relabelled = protocol.relabel(payload, model);
      await output.write(protocol.encode(relabelled, name, relabelled === payload ? data : undefined));
      if (signal.aborted) break;
    }
    if (signal.aborted) throw signal.reason;
    recorder.addCost(reading.usage);
    output.end(protocol.end());
    recorder.record({ status: 200, finishReason: reading.finishReason, usage: reading.usage });
  } catch (error) {
    await failed(error);
  }
  return undefined;
}
