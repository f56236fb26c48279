// Data for the browser tests, written before `switchyard serve` starts: a provider pointing at a fake upstream,
// and optionally prices.

import { pino } from 'pino';
import { createApp } from '../../main/app/index.js';

export async function seedProvider(
  dataDir: string,
  provider: { id: string; baseUrl: string; apiKey?: string | null },
  prices: { model: string; input: number; output: number }[] = [],
): Promise<void> {
  const app = createApp({
    dataDir,
    secretStoreMode: 'file',
    localProviders: false,
    env: {},
    logger: pino({ level: 'silent' }),
  });
  try {
    await app.providers.add({
      id: provider.id,
      kind: 'openai',
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey ?? null,
    });
    for (const price of prices) app.accounts.prices.set(price.model, { input: price.input, output: price.output });
  } finally {
    await app.close();
  }
}
