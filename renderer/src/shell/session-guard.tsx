// The browser UI signs in with the token of the link `switchyard serve` printed; a restart of serve, or a page
// opened from a bookmark, leaves the tab with a token the server no longer takes. Every screen would then wait or
// look empty, as if the data were lost: instead, the app is shown only once the server took the tab's sign-in, and
// the first call or event stream the server refuses replaces the whole app with a page that says the link expired
// and how to get a new one (the session: shared/bridge/http-session.ts). A team server (several instances behind a
// load balancer, decision 017) also takes a management key there: the page asks the server whether it offers that,
// and shows the form when it does. (The desktop app never gets here: its bridge needs no sign-in.)

import { useEffect, useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import type { BridgeSession } from '../../../shared/bridge/transport.js';
import { useBridge } from '../bridge/bridge-context.js';
import { CopyButton } from '../ui/copy-button.js';
import { TextField } from '../ui/parts.js';

export const newLinkCommand = 'switchyard ui --open';

const noSignIn: BridgeSession = { state: () => 'accepted', subscribe: () => () => undefined };

export function SessionGuard({ children }: { children: ReactNode }) {
  const session = useBridge().session ?? noSignIn;
  const state = useSyncExternalStore(session.subscribe, session.state);
  if (state === 'refused') return <LinkExpired />;
  // Nothing until the server answered (a few milliseconds): neither an app it may refuse nor a page it may not.
  if (state === 'checking') return null;
  return children;
}

export function LinkExpired() {
  const [signInOffered, setSignInOffered] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/ui/sign-in', { cache: 'no-store' })
      .then(async (response) => (response.ok ? ((await response.json()) as { available?: unknown }) : null))
      .then((answer) => live && setSignInOffered(answer?.available === true))
      .catch(() => undefined); // an older server: the link is the only way in
    return () => {
      live = false;
    };
  }, []);
  if (signInOffered) return <TeamSignIn />;
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

/** A team server's sign-in: a management key, sent once; the session is an HttpOnly cookie the page never sees. */
function TeamSignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await fetch('/ui/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key }),
      });
      if (response.ok) return window.location.reload();
      const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(answer?.error?.message ?? `Signing in failed (HTTP ${response.status}).`);
    } catch {
      setError('Switchyard did not answer: check that it is running, then try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="start-error link-expired" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Switchyard</h1>
      <p>
        This Switchyard is shared by a team. Sign in with a management key of its gateway (
        <code>switchyard keys create --management</code> makes one); the session lasts 12 hours on every instance, until
        you sign out or the key is deleted.
      </p>
      <form onSubmit={(event) => void submit(event)}>
        <TextField
          label="Management key"
          error={error}
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          value={key}
          onChange={setKey}
        />
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
