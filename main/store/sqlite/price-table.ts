// SQL for model_prices: the user's price overrides. Prices are whole pico-dollars per token (1e-12 USD, the same
// number as micro-dollars per million tokens), so that costs are integer arithmetic.

import type { Database, Statement } from 'better-sqlite3';
import type { PriceRow } from '../contract/prices.js';

// Read and bound under PriceRow's field names, so that a row is a PriceRow as it comes.
const columns =
  'model, input_pico AS inputPico, output_pico AS outputPico, cache_read_pico AS cacheReadPico, ' +
  'cache_write_pico AS cacheWritePico, updated_at AS updatedAt';

export class PriceTable {
  private readonly listStatement: Statement<[], PriceRow>;
  private readonly upsertStatement: Statement<[PriceRow]>;
  private readonly removeStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare(`SELECT ${columns} FROM model_prices ORDER BY model`);
    this.upsertStatement = db.prepare(
      `INSERT INTO model_prices (model, input_pico, output_pico, cache_read_pico, cache_write_pico, updated_at)
       VALUES (@model, @inputPico, @outputPico, @cacheReadPico, @cacheWritePico, @updatedAt)
       ON CONFLICT (model) DO UPDATE SET input_pico = excluded.input_pico, output_pico = excluded.output_pico,
         cache_read_pico = excluded.cache_read_pico, cache_write_pico = excluded.cache_write_pico,
         updated_at = excluded.updated_at`,
    );
    this.removeStatement = db.prepare('DELETE FROM model_prices WHERE model = ?');
  }

  list(): PriceRow[] {
    return this.listStatement.all();
  }

  set(price: PriceRow): void {
    this.upsertStatement.run(price);
  }

  remove(model: string): boolean {
    return this.removeStatement.run(model).changes > 0;
  }
}
