// The browser UI signs in with the token of the link `switchyard serve` printed; a restart of serve, or a page
// opened from a bookmark, leaves the tab with a token the server no longer takes. Every screen would then wait or
// look empty, as if the data were lost: instead, the first call the server refuses as unauthorized replaces the
// whole app with a page that says the link expired and how to get a new one. (The desktop app never gets here:
// its bridge needs no token.)

import { useMemo, useState, type ReactNode } from 'react';
import { BridgeError, type BridgeClient } from '../../../shared/bridge/client.js';
import { BridgeProvider, useBridge } from '../bridge/bridge-context.js';
import { CopyButton } from '../ui/copy-button.js';

export const newLinkCommand = 'switchyard ui --open';

export function SessionGuard({ children }: { children: ReactNode }) {
  const bridge = useBridge();
  const [expired, setExpired] = useState(false);
  const guarded = useMemo<BridgeClient>(
    () => ({
      async invoke(channel, ...request) {
        try {
          return await bridge.invoke(channel, ...request);
        } catch (error) {
          if (error instanceof BridgeError && error.code === 'unauthorized') setExpired(true);
          throw error;
        }
      },
      on: (event, listener) => bridge.on(event, listener),
    }),
    [bridge],
  );
  if (expired) return <LinkExpired />;
  return <BridgeProvider bridge={guarded}>{children}</BridgeProvider>;
}

export function LinkExpired() {
  return (
    <main className="start-error link-expired" aria-labelledby="link-expired-title">
      <h1 id="link-expired-title">This link has expired</h1>
      <p>
        Switchyard was restarted since this page was opened, or the page came from a bookmark: the sign-in link it was
        opened with is no longer valid. Your conversations and settings are safe.
      </p>
      <p>For a new link, run this in a terminal on the machine where Switchyard runs:</p>
      <div className="with-copy">
        <code className="command">{newLinkCommand}</code>
        <CopyButton text={newLinkCommand} what="the command" />
      </div>
      <p className="muted">
        It opens Switchyard in your browser (<code>switchyard ui</code> only prints the link; from a clone of the
        repository, put <code>npx</code> in front). The link <code>switchyard serve</code> printed when it started works
        too. If you opened a new link in another tab, try again here.
      </p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        Try again
      </button>
    </main>
  );
}
