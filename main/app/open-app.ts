// Opens the app on the database a command was given (decision 017): SQLite in the data folder by default, or the
// PostgreSQL database of a team server from `--database-url` / SWITCHYARD_DATABASE_URL. On PostgreSQL the provider
// secrets are in that database too, sealed with SWITCHYARD_SECRET_KEY, which is checked before anything starts.

import { openDatabaseSecrets } from '../secrets/index.js';
import { databaseUrlFrom, openPostgresStore } from '../store/index.js';
import { createApp, type App, type AppOptions } from './create-app.js';

export interface OpenAppOptions extends Omit<AppOptions, 'store' | 'providerSecrets'> {
  /** `--database-url`; without it SWITCHYARD_DATABASE_URL, else SQLite. */
  databaseUrl?: string;
  /** A process that serves requests (`switchyard serve`): on PostgreSQL it joins the instances' change barrier. */
  instance?: boolean;
}

export async function openApp(options: OpenAppOptions): Promise<App> {
  const { databaseUrl, instance, ...appOptions } = options;
  const env = options.env ?? process.env;
  const url = databaseUrlFrom(databaseUrl, env);
  if (url === undefined) return createApp(appOptions);
  const store = await openPostgresStore(url, { instance: instance ?? false });
  try {
    const providerSecrets = await openDatabaseSecrets(store.sqlClient(), env);
    return createApp({ ...appOptions, store, providerSecrets });
  } catch (error) {
    await store.close();
    throw error;
  }
}
