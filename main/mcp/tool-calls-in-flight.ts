// The tool calls one server is running, so that a question it asks (elicitation) reaches the caller it belongs to.
// The protocol does not say which call a question comes during (the SDK's client is not told), so it is asked only
// when exactly one call is in flight; with none or several it is declined rather than shown to a caller it may not
// belong to.

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { LogBuffer } from './log-buffer.js';
import type { ElicitationHandler, ElicitationRequest, ToolCallOptions } from './types.js';

interface CallInFlight {
  onElicitation?: ElicitationHandler;
  /** Aborted when the call ends: a question asked during it no longer stands. */
  ended: AbortController;
}

export class ToolCallsInFlight {
  private readonly calls = new Set<CallInFlight>();

  /** `fallback`: answers questions during calls that brought no handler of their own; unset: they are declined. */
  constructor(
    private readonly server: () => string,
    private readonly log: LogBuffer,
    private readonly fallback: ElicitationHandler | undefined,
  ) {}

  /** Runs one call, counted in flight until it ends. */
  async run<T>(options: ToolCallOptions, call: () => Promise<T>): Promise<T> {
    const inFlight: CallInFlight = {
      ended: new AbortController(),
      ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    };
    this.calls.add(inFlight);
    try {
      return await call();
    } finally {
      this.calls.delete(inFlight);
      inFlight.ended.abort();
    }
  }

  async answerElicitation(request: ElicitRequest, signal: AbortSignal): Promise<ElicitResult> {
    const params = request.params;
    if (params.mode === 'url') return { action: 'decline' };
    const calls = [...this.calls];
    const call = calls.length === 1 ? calls[0] : undefined;
    const handler = call?.onElicitation ?? this.fallback;
    if (!call || !handler) {
      const why =
        calls.length === 0
          ? 'no tool call of ours was running'
          : call
            ? 'nobody is there to answer it'
            : `${calls.length} tool calls were running, and it could belong to any of them`;
      this.log.add('switchyard', `Declined a question from the server (elicitation): ${why}.`);
      return { action: 'decline' };
    }
    const question: ElicitationRequest = {
      server: this.server(),
      message: params.message,
      requestedSchema: params.requestedSchema as ElicitationRequest['requestedSchema'],
    };
    return handler(question, AbortSignal.any([signal, call.ended.signal]));
  }
}
