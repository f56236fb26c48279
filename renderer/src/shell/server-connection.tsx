// A browser tab whose server stopped (or whose network to it failed) says so once, in a banner above the screen,
// rather than in a "Failed to fetch" on every panel; the screens' controls are disabled meanwhile (ui/parts.tsx's
// Screen), since every one of them would fail, and come back by themselves with the server
// (shared/bridge/http-connection.ts asks it every few seconds). The desktop app never shows it: its bridge cannot
// lose its server.

import { useServerConnection } from '../bridge/bridge-context.js';

export function ServerUnreachableBanner() {
  if (useServerConnection() !== 'unreachable') return null;
  return (
    <div className="server-unreachable" role="alert">
      <p>
        <strong>Switchyard&apos;s server is not reachable.</strong> Check that <code>switchyard serve</code> is still
        running on the machine this page came from, and start it again if it stopped. Retrying every few seconds: this
        page carries on by itself when the server answers.
      </p>
    </div>
  );
}
