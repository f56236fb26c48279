// SQL for app_settings: settings kept with the app's data, each a JSON value by name, shared by every process on the
// file and read into the PostgreSQL engine's snapshot. What a value means is its owner's business (main/app).

import type { Database, Statement } from 'better-sqlite3';

export class SettingsTable {
  private readonly getStatement: Statement<[string], { value: string }>;
  private readonly setStatement: Statement<[string, string]>;

  constructor(db: Database) {
    this.getStatement = db.prepare('SELECT value FROM app_settings WHERE name = ?');
    this.setStatement = db.prepare(
      'INSERT INTO app_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    );
  }

  get(name: string): string | undefined {
    return this.getStatement.get(name)?.value;
  }

  set(name: string, value: string): void {
    this.setStatement.run(name, value);
  }
}
