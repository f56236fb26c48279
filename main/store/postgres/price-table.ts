// SQL for model_prices in PostgreSQL's dialect: the writes of the PostgreSQL engine. Reads come from the snapshot
// (replica.ts), through the SQLite engine's PriceTable.

import type pg from 'pg';
import type { PriceRow } from '../contract/prices.js';

export async function setPrice(client: pg.ClientBase, price: PriceRow): Promise<void> {
  await client.query(
    `INSERT INTO model_prices (model, input_pico, output_pico, cache_read_pico, cache_write_pico, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (model) DO UPDATE SET input_pico = excluded.input_pico, output_pico = excluded.output_pico,
       cache_read_pico = excluded.cache_read_pico, cache_write_pico = excluded.cache_write_pico,
       updated_at = excluded.updated_at`,
    [price.model, price.inputPico, price.outputPico, price.cacheReadPico, price.cacheWritePico, price.updatedAt],
  );
}

export async function removePrice(client: pg.ClientBase, model: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM model_prices WHERE model = $1', [model]);
  return (rowCount ?? 0) > 0;
}
