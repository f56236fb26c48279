// The frame around every screen: the left navigation, the app's version and gateway address, and the screen.
// A browser tab whose sign-in link expired shows the page that says so instead (session-guard.tsx).

import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../shared/bridge/types.js';
import { BridgeError } from '../../../shared/bridge/client.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { NavigationProvider } from './navigation.js';
import { screens } from './screens.js';
import { ServerUnreachableBanner } from './server-connection.js';
import { SessionGuard } from './session-guard.js';
import { ThemeSelect } from './theme-select.js';
import { ElicitationPrompts } from '../mcp/elicitation-dialog.js';

export function AppShell() {
  return (
    <SessionGuard>
      <AppFrame />
    </SessionGuard>
  );
}

function AppFrame() {
  const bridge = useBridge();
  const [screenId, setScreenId] = useState(screens[0]?.id);
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [startError, setStartError] = useState<string | null>(null);

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

  const screen = screens.find((candidate) => candidate.id === screenId) ?? screens[0];
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
                onClick={() => setScreenId(id)}
              >
                <Icon />
                <span>{label}</span>
              </button>
            </li>
          ))}
        </ul>
        <footer className="app-nav-footer">
          <ThemeSelect />
          <span title={info?.gatewayUrl ?? undefined}>{info ? `v${info.version}` : ''}</span>
        </footer>
      </nav>
      <main className="app-main">
        <ServerUnreachableBanner />
        <NavigationProvider value={setScreenId}>{Current ? <Current /> : null}</NavigationProvider>
      </main>
      <ElicitationPrompts />
    </div>
  );
}
