// A remote server that wants an OAuth sign-in: what it needs, a Sign in button that opens the sign-in page in
// the browser, and the page's link for when no browser opened. The sign-in ends in the browser; the server's
// status (an event from main) then says connected, and this notice goes away.

import { useState } from 'react';
import type { McpServerStatus } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ErrorNotice } from '../ui/parts.js';

export function SignInNotice({ server }: { server: McpServerStatus }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pageUrl, setPageUrl] = useState<string | null>(null);

  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const { authorizationUrl } = await bridge.invoke('mcp:sign-in', { name: server.name });
      // Only a web page: the address comes from the server's metadata.
      if (authorizationUrl && /^https?:\/\//i.test(authorizationUrl)) {
        setPageUrl(authorizationUrl);
        window.open(authorizationUrl, '_blank', 'noopener,noreferrer');
      }
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="notice sign-in-notice" role="status">
      <p>{server.message ?? `${server.name} needs you to sign in.`}</p>
      <p>
        <button type="button" className="primary" disabled={busy} onClick={() => void signIn()}>
          {pageUrl ? 'Sign in again' : 'Sign in'}
        </button>
      </p>
      {pageUrl ? (
        <p className="muted">
          Finish signing in in your browser; this server connects when you are done. No page opened?{' '}
          <a href={pageUrl} target="_blank" rel="noopener noreferrer">
            Open the sign-in page
          </a>
          .
        </p>
      ) : null}
      <ErrorNotice message={error} />
    </div>
  );
}
