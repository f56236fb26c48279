// The frame around every screen: the left navigation, the app's version and gateway address, and the screen.
// A browser tab whose sign-in link expired shows the page that says so instead (session-guard.tsx).
// Which screen shows is the address's (route.ts); each screen is reopened where it was left (the open
// conversation), so going to Providers and back does not lose it.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppInfo } from '../../../shared/bridge/types.js';
import { BridgeError } from '../../../shared/bridge/client.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { NavigationProvider } from './navigation.js';
import { navigate, routeHash, useRoute } from './route.js';
import { screens } from './screens.js';
import { ServerUnreachableBanner } from './server-connection.js';
import { SessionGuard } from './session-guard.js';
import { ThemeSelect } from './theme-select.js';
import { ShortcutsHelp } from './shortcuts-help.js';
import { ElicitationPrompts } from '../mcp/elicitation-dialog.js';
import { SamplingPrompts } from '../mcp/sampling-dialog.js';

export function AppShell() {
  return (
    <SessionGuard>
      <AppFrame />
    </SessionGuard>
  );
}

function AppFrame() {
  const bridge = useBridge();
  const route = useRoute();
  /** The address each screen was last seen at. */
  const lastHashOf = useRef(new Map<string, string>());
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [startError, setStartError] = useState<string | null>(null);

  const screen = screens.find((candidate) => candidate.id === route.screen) ?? screens[0];
  useEffect(() => {
    if (screen)
      lastHashOf.current.set(screen.id, route.screen === screen.id ? window.location.hash : routeHash(screen.id));
  }, [screen, route]);

  const goTo = useCallback((screenId: string) => {
    navigate(lastHashOf.current.get(screenId) ?? routeHash(screenId));
  }, []);

  useEffect(() => {
    bridge.invoke('app:info').then(setInfo, (error: unknown) => {
      // An unauthorized answer is the guard's: it shows the expired-link page.
      if (!(error instanceof BridgeError && error.code === 'unauthorized')) setStartError(errorMessage(error));
    });
  }, [bridge]);

  if (startError) {
    return (
      <main className="start-error" role="alert">
        <h1>Switchyard cannot be reached</h1>
        <p>{startError}</p>
      </main>
    );
  }

  const Current = screen?.component;
  return (
    <div className="app-shell">
      <nav className="app-nav" aria-label="Main">
        <div className="app-brand" aria-hidden="true">
          S
        </div>
        <ul>
          {screens.map(({ id, label, icon: Icon }) => (
            <li key={id}>
              <button
                type="button"
                className="nav-item"
                aria-current={id === screen?.id ? 'page' : undefined}
                onClick={() => goTo(id)}
              >
                <Icon />
                <span>{label}</span>
              </button>
            </li>
          ))}
        </ul>
        <footer className="app-nav-footer">
          <ShortcutsHelp />
          <ThemeSelect />
          <span title={info?.gatewayUrl ?? undefined}>{info ? `v${info.version}` : ''}</span>
        </footer>
      </nav>
      <main className="app-main">
        <ServerUnreachableBanner />
        <NavigationProvider value={goTo}>{Current ? <Current /> : null}</NavigationProvider>
      </main>
      <ElicitationPrompts />
      <SamplingPrompts />
    </div>
  );
}
