// The one error type of the chat: its code says what went wrong in the bridge's terms (the bridge passes it on as
// it is), its message is for people. It is the bridge's own error type, named for where it came from.
// A failed reply's message says the cause and what to do about it: the gateway's wording says what happened
// (upstream-errors.ts: "Provider "x" rejected its API key (upstream 401)."), and explainFailure adds the step a
// person takes in the app — the Providers screen for a key or an address, the model picker for a model, waiting
// for a rate limit.

import { BridgeError } from '../../shared/bridge/client.js';

export class ChatError extends BridgeError {
  override readonly name = 'ChatError';
}

/** The abort reason of what a person stopped (a turn, a compared answer): a stop, told apart from a failure. */
export class StoppedByUser extends Error {
  override readonly name = 'StoppedByUser';
}

/** A failure the gateway reported: its HTTP status (or a mid-stream error's code) and its envelope. */
export interface GatewayFailure {
  status: number;
  message: string;
  /** `error.metadata.provider_name`: the provider whose answer failed, when an upstream did. */
  provider?: string | null;
}

const retry = 'try again (Regenerate)';

/** What a person can do about the failure, as one sentence; null when there is nothing to add. */
function adviceFor(
  status: number,
  upstreamStatus: number | null,
  message: string,
  provider: string | null,
): string | null {
  const named = provider ? `provider "${provider}"` : 'the provider';
  const onProviders = provider ? `the key of provider "${provider}"` : "the provider's key";
  const meaning = upstreamStatus ?? status;
  if (/^Could not reach provider|has an invalid base URL/.test(message)) {
    return `Check the base URL of ${named} on the Providers screen, and that its server is running.`;
  }
  if (/connection to provider .* was lost/.test(message)) {
    return `Check that the server of ${named} is still running, then ${retry}.`;
  }
  if (provider && (meaning === 401 || meaning === 403)) {
    return `The provider refused the key: check ${onProviders} on the Providers screen.`;
  }
  if (provider && meaning === 402) {
    return `Add credits to your account with ${named}, or pick a model of another provider.`;
  }
  switch (meaning) {
    case 404:
      return 'Pick another model in the model picker above (the provider may have removed or renamed this one).';
    case 408:
    case 504:
      return `Wait a moment and ${retry}; if it keeps happening, check that the server of ${named} is running or pick another model.`;
    case 413:
      return 'Make the conversation shorter: delete long messages or images, or start a new chat.';
    case 429:
      return provider
        ? `Wait a minute and ${retry}; if it keeps happening, check the rate limits of your plan with ${named}.`
        : `Wait a minute and ${retry}.`;
    case 503:
    case 529:
      return `Wait a moment and ${retry}, or pick another model.`;
    case 400:
    case 422:
      return 'Check the conversation settings (system prompt, temperature) and attachments, or pick another model.';
    case 500:
      return `Switchyard failed inside: ${retry}; the log of Switchyard has the details.`;
    default:
      return status >= 500 ? `Wait a moment and ${retry}, or pick another model.` : null;
  }
}

/** The gateway's message with what to do about it appended (the gateway's own words already name the cause). */
export function explainFailure(failure: GatewayFailure): string {
  const message = failure.message.trim();
  const provider: string | null = failure.provider ?? /Provider "([^"]+)"/i.exec(message)?.[1] ?? null;
  const upstream = /\(upstream (\d{3})\)/.exec(message)?.[1];
  const advice = adviceFor(failure.status, upstream ? Number(upstream) : null, message, provider);
  if (!advice) return message;
  return `${/[.!?]$/.test(message) ? message : `${message}.`} ${advice}`;
}
