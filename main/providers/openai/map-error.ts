// Upstream failures → our ApiError. The mapping is provider-neutral and lives in ../http/upstream-errors.ts, shared
// with the Anthropic and Google adapters; this module keeps the names the OpenAI adapter and its tests import.

export {
  mapTransportError,
  mapUpstreamError,
  mapUpstreamErrorPayload,
  mapUpstreamStatus,
  rawUpstreamBody,
  redactSecret,
  type TransportContext,
  type UpstreamErrorResponse,
} from '../http/upstream-errors.js';
