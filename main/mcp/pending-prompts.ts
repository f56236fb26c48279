// Requests that wait for a person's answer in whatever UI shows them (a server's question, a sampling approval):
// each is an event with an id; the UI answers by id. With nobody listening (the CLI, a test) a request gets the
// `unanswered` answer at once, never left waiting; one whose call ended gets the `withdrawn` answer and the UI is
// told, so no dialog outlives its call.

import { randomUUID } from 'node:crypto';
import { Emitter } from '../../shared/events/index.js';

export class PendingPrompts<Request extends object, Answer> {
  private readonly promptEmitter = new Emitter<Request & { id: string }>();
  private readonly endedEmitter = new Emitter<{ id: string }>();
  private readonly pending = new Map<string, (answer: Answer) => void>();

  /** A request to show. */
  readonly onPrompt = this.promptEmitter.event;
  /** A request no longer stands (answered, or its call ended): close its dialog. */
  readonly onPromptEnded = this.endedEmitter.event;

  constructor(private readonly answers: { unanswered: Answer; withdrawn: Answer }) {}

  /** Whether a UI shows these requests now. */
  get shown(): boolean {
    return this.promptEmitter.hasListeners;
  }

  ask(request: Request, signal: AbortSignal): Promise<Answer> {
    if (!this.shown || signal.aborted) return Promise.resolve(this.answers.unanswered);
    const id = randomUUID();
    return new Promise((resolve) => {
      const settle = (answer: Answer) => {
        if (!this.pending.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.endedEmitter.fire({ id });
        resolve(answer);
      };
      const onAbort = () => settle(this.answers.withdrawn);
      this.pending.set(id, settle);
      signal.addEventListener('abort', onAbort, { once: true });
      this.promptEmitter.fire({ id, ...request });
    });
  }

  /** False when the request is no longer pending (answered elsewhere, or its call ended). */
  answer(id: string, answer: Answer): boolean {
    const settle = this.pending.get(id);
    settle?.(answer);
    return settle !== undefined;
  }
}
