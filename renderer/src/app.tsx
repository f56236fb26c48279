import { useEffect, useState } from 'react';
import type { AppInfo, Bridge } from '../../shared/bridge.js';

declare global {
  interface Window {
    switchyard?: Bridge;
  }
}

export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    void window.switchyard?.appInfo().then(setInfo);
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Switchyard</h1>
      <p>
        {info?.gatewayUrl ? `The gateway is listening at ${info.gatewayUrl}.` : 'The gateway is not listening yet.'}
      </p>
    </main>
  );
}
