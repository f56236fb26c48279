// SQL for model_prices: the user's price overrides. Prices are whole pico-dollars per token (1e-12 USD, the same
// number as micro-dollars per million tokens), so that costs are integer arithmetic.

import type { Database, Statement } from 'better-sqlite3';

export interface PriceRow {
  /** As the user typed it: an upstream model name (`gpt-4o`) or a full id (`myazure/gpt-4o`). */
  model: string;
  inputPico: number;
  outputPico: number;
  /** Null: cached input tokens cost the input price. */
  cacheReadPico: number | null;
  /** Null: tokens written to the cache cost the input price. */
  cacheWritePico: number | null;
  updatedAt: number;
}

interface PriceColumns {
  model: string;
  input_pico: number;
  output_pico: number;
  cache_read_pico: number | null;
  cache_write_pico: number | null;
  updated_at: number;
}

const columns = 'model, input_pico, output_pico, cache_read_pico, cache_write_pico, updated_at';

export class PriceTable {
  private readonly listStatement: Statement<[], PriceColumns>;
  private readonly upsertStatement: Statement<[PriceColumns]>;
  private readonly removeStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare(`SELECT ${columns} FROM model_prices ORDER BY model`);
    this.upsertStatement = db.prepare(
      `INSERT INTO model_prices (${columns}) VALUES (@model, @input_pico, @output_pico, @cache_read_pico,
         @cache_write_pico, @updated_at)
       ON CONFLICT (model) DO UPDATE SET input_pico = excluded.input_pico, output_pico = excluded.output_pico,
         cache_read_pico = excluded.cache_read_pico, cache_write_pico = excluded.cache_write_pico,
         updated_at = excluded.updated_at`,
    );
    this.removeStatement = db.prepare('DELETE FROM model_prices WHERE model = ?');
  }

  list(): PriceRow[] {
    return this.listStatement.all().map((row) => ({
      model: row.model,
      inputPico: row.input_pico,
      outputPico: row.output_pico,
      cacheReadPico: row.cache_read_pico,
      cacheWritePico: row.cache_write_pico,
      updatedAt: row.updated_at,
    }));
  }

  set(price: PriceRow): void {
    this.upsertStatement.run({
      model: price.model,
      input_pico: price.inputPico,
      output_pico: price.outputPico,
      cache_read_pico: price.cacheReadPico,
      cache_write_pico: price.cacheWritePico,
      updated_at: price.updatedAt,
    });
  }

  remove(model: string): boolean {
    return this.removeStatement.run(model).changes > 0;
  }
}
