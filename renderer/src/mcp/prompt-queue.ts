// What servers ask the person during tool calls (elicitation's forms, sampling's approvals) arrives as events, one
// request each, and is withdrawn by another event when its call ends: shown one at a time, oldest first, and the
// person's answer sent back.

import { useState } from 'react';
import type { BridgeEventName, BridgeEventPayload } from '../../../shared/bridge/contract.js';
import { errorMessage, useBridgeEvent } from '../bridge/bridge-context.js';

type Prompt = { id: string };

/** The events that bring a request with an id. */
type PromptEvent = { [E in BridgeEventName]: BridgeEventPayload<E> extends Prompt ? E : never }[BridgeEventName];

/** The request to show now (undefined: none), and `done` to drop it once answered. */
export function usePromptQueue<Shown extends PromptEvent>(
  shown: Shown,
  ended: Extract<PromptEvent, `${string}-ended`>,
): { first: BridgeEventPayload<Shown> | undefined; done(): void } {
  const [prompts, setPrompts] = useState<BridgeEventPayload<Shown>[]>([]);
  const idOf = (prompt: BridgeEventPayload<Shown>) => (prompt as Prompt).id;
  useBridgeEvent(shown, (prompt) =>
    setPrompts((current) => (current.some((known) => idOf(known) === idOf(prompt)) ? current : [...current, prompt])),
  );
  useBridgeEvent(ended, ({ id }) => setPrompts((current) => current.filter((prompt) => idOf(prompt) !== id)));
  const [first] = prompts;
  const done = () => setPrompts((current) => current.filter((prompt) => prompt !== first));
  return { first, done };
}

/** Sends the person's answer to a prompt; `busy` while it goes, `error` when it failed (the prompt stays to retry). */
export function usePromptAnswer<Answer>(send: (answer: Answer) => Promise<unknown>, onDone: () => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (value: Answer) => {
    setBusy(true);
    setError(null);
    try {
      await send(value);
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return { answer, busy, error };
}
