// What the open conversation has cost so far, and how full the model's context window will be for the next
// request. The next request carries the whole history: the last reply's prompt and completion tokens are what the
// history weighs (the upstream counted them), plus what is being typed, estimated at four characters a token. A
// model whose listing gives no context length gets no percentage: the line says the size is unknown.

import { useEffect, useState } from 'react';
import { formatCost } from '../../../shared/api/index.js';
import type { ChatMessage, ModelOption } from '../../../shared/bridge/types.js';
import { composerTextareaId } from './composer.js';

export interface ConversationTotals {
  tokens: number;
  cost: number;
  /** Some reply had no price: the cost is a floor, shown as unpriced. */
  unpriced: boolean;
  /** Prompt + completion tokens of the last reply with usage: the history's size as the model counted it. */
  lastRequestTokens: number | null;
}

export function conversationTotals(messages: readonly ChatMessage[]): ConversationTotals {
  let tokens = 0;
  let cost = 0;
  let unpriced = false;
  let lastRequestTokens: number | null = null;
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.usage) continue;
    const replyTokens = message.usage.prompt_tokens + message.usage.completion_tokens;
    tokens += replyTokens;
    lastRequestTokens = replyTokens;
    if (message.cost === null) unpriced = true;
    else cost += message.cost;
  }
  return { tokens, cost, unpriced, lastRequestTokens };
}

/** Four characters a token: close for English prose, and no tokenizer to ship for an estimate. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What is typed in the message box, followed as it changes (the composer owns the text). */
function useTypedText(): string {
  const [typed, setTyped] = useState({ text: '', box: null as HTMLTextAreaElement | null });
  useEffect(() => {
    const listener = (event: Event) => {
      if (event.target instanceof HTMLTextAreaElement && event.target.id === composerTextareaId) {
        setTyped({ text: event.target.value, box: event.target });
      }
    };
    document.addEventListener('input', listener);
    return () => document.removeEventListener('input', listener);
  }, []);
  // Sending empties the box without an input event: what it holds now wins over what was last typed.
  return typed.box?.isConnected ? typed.box.value : typed.text;
}

function compact(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000).toLocaleString()}k` : tokens.toLocaleString();
}

export function ConversationCost({
  messages,
  model,
}: {
  messages: readonly ChatMessage[];
  model: ModelOption | undefined;
}) {
  const typed = useTypedText();
  const totals = conversationTotals(messages);
  const next = (totals.lastRequestTokens ?? 0) + estimateTokens(typed);
  const contextLength = model?.contextLength ?? null;
  const share = contextLength ? next / contextLength : null;
  const context =
    share === null
      ? `next request about ${compact(next)} tokens; context size unknown`
      : `next request about ${compact(next)} of ${compact(contextLength!)} tokens (${formatShare(share)})`;
  return (
    <div className="conversation-cost" role="group" aria-label="Conversation usage">
      <span>
        {totals.tokens.toLocaleString()} tokens · {formatCost(totals.cost, totals.unpriced)}
      </span>
      <span className={share !== null && share > 0.9 ? 'context-use context-full' : 'context-use'}>{context}</span>
      {share !== null ? (
        <meter
          className="context-meter"
          aria-label="Context window used"
          min={0}
          max={1}
          low={0.7}
          high={0.9}
          optimum={0}
          value={Math.min(share, 1)}
        />
      ) : null}
    </div>
  );
}

function formatShare(share: number): string {
  if (share > 0 && share < 0.01) return 'under 1%';
  return `${Math.round(share * 100)}%`;
}
