// Data for the browser tests, written before `switchyard serve` starts: a provider pointing at a fake upstream,
// and optionally prices.

import { pino } from 'pino';
import { createApp, type App } from '../../main/app/index.js';

/** Opens the app on the data dir as serve will (file secret store, no providers of this machine), for `work`. */
export async function withSeedApp<T>(dataDir: string, work: (app: App) => Promise<T> | T): Promise<T> {
  const app = createApp({
    dataDir,
    secretStoreMode: 'file',
    localProviders: false,
    env: {},
    logger: pino({ level: 'silent' }),
  });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

export function seedProvider(
  dataDir: string,
  provider: { id: string; baseUrl: string; apiKey?: string | null },
  prices: { model: string; input: number; output: number }[] = [],
): Promise<void> {
  return withSeedApp(dataDir, async (app) => {
    await app.providers.add({
      id: provider.id,
      kind: 'openai',
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey ?? null,
    });
    for (const price of prices)
      await app.accounts.prices.set(price.model, { input: price.input, output: price.output });
  });
}
