// Questions MCP servers ask the person during a tool call (elicitation), for whatever UI shows them: each is an
// event with an id; the UI answers by id. With nobody listening (the CLI, a test) a question is declined at once,
// never left waiting; a question whose call ended is cancelled and the UI told, so no dialog outlives its call.

import { randomUUID } from 'node:crypto';
import { Emitter } from '../../shared/events/index.js';
import type { ElicitationAnswer, ElicitationRequest } from './types.js';

export interface ElicitationPrompt extends ElicitationRequest {
  id: string;
}

export class ElicitationPrompts {
  private readonly promptEmitter = new Emitter<ElicitationPrompt>();
  private readonly endedEmitter = new Emitter<{ id: string }>();
  private readonly pending = new Map<string, (answer: ElicitationAnswer) => void>();

  /** A question to show. */
  readonly onPrompt = this.promptEmitter.event;
  /** A question no longer stands (answered, or its call ended): close its dialog. */
  readonly onPromptEnded = this.endedEmitter.event;

  ask(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    if (!this.promptEmitter.hasListeners || signal.aborted) return Promise.resolve({ action: 'decline' });
    const id = randomUUID();
    return new Promise((resolve) => {
      const settle = (answer: ElicitationAnswer) => {
        if (!this.pending.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.endedEmitter.fire({ id });
        resolve(answer);
      };
      const onAbort = () => settle({ action: 'cancel' });
      this.pending.set(id, settle);
      signal.addEventListener('abort', onAbort, { once: true });
      this.promptEmitter.fire({ id, ...request });
    });
  }

  /** False when the question is no longer pending (answered elsewhere, or its call ended). */
  answer(id: string, answer: ElicitationAnswer): boolean {
    const settle = this.pending.get(id);
    settle?.(answer);
    return settle !== undefined;
  }
}
