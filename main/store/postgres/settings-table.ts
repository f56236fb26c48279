// SQL for app_settings in PostgreSQL's dialect: the writes of the PostgreSQL engine. Reads come from the snapshot
// (replica.ts), through the SQLite engine's SettingsTable.

import type pg from 'pg';

export async function setSetting(client: pg.ClientBase, name: string, value: string): Promise<void> {
  await client.query(
    `INSERT INTO app_settings (name, value) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    [name, value],
  );
}
