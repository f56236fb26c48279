import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BridgeProvider } from './bridge/bridge-context.js';
import { connectBridge } from './bridge/connect.js';
import { AppShell } from './shell/app-shell.js';
import { applyTheme, storedTheme } from './shell/theme.js';
import './styles/theme.css';
import './styles/shell.css';
import './styles/chat.css';
import './styles/screens.css';
import './styles/highlight.css';

applyTheme(storedTheme(), false); // before the first paint, so a dark choice does not flash light

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BridgeProvider bridge={connectBridge()}>
        <AppShell />
      </BridgeProvider>
    </StrictMode>,
  );
}
