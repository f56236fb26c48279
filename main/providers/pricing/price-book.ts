// What a request costs: the upstream's own figure when it reports one (OpenRouter's usage.cost), else the price of
// the model from the user's overrides (stored in the DB) or the bundled table, else 0 and marked unpriced.
// Overrides are cached and reloaded when the database says something changed (another process ran `prices set`).

import { AnswerCache } from '../../common/index.js';
import { ApiError, nanosToUsd, usdToNanos, type ModelPriceInfo, type Usage } from '../../../shared/api/index.js';
import type { PriceRow, Store } from '../../store/index.js';
import { builtinAliases, builtinPrices } from './builtin-prices.js';
import { costInNanos } from './compute-cost.js';
import {
  picoToUsdPerMillion,
  toTokenPrices,
  usdPerMillionToPico,
  type ModelPrice,
  type TokenPrices,
} from './model-price.js';
import { priceLookupNames, type PriceTarget } from './model-names.js';

export type PriceStore = Pick<Store, 'listPrices' | 'setPrice' | 'removePrice' | 'changeVersion'>;

export interface PricedCost {
  /** USD, exact to the nano-dollar. */
  cost: number;
  costNanos: number;
  /** No price was known and the upstream reported no cost: the cost is 0 but the request was not free. */
  unpriced: boolean;
  source: 'upstream' | 'override' | 'builtin' | null;
}

/** USD per million tokens, as `switchyard prices set` takes them. */
export interface PriceInput {
  input: number;
  output: number;
  cacheRead?: number | null;
  cacheWrite?: number | null;
}

export interface PriceBookOptions {
  builtins?: Readonly<Record<string, ModelPrice>>;
  aliases?: Readonly<Record<string, string>>;
  now?: () => number;
}

const maxModelNameLength = 200;

/** A price and where it was found. */
export interface FoundPrice {
  prices: TokenPrices;
  source: 'override' | 'builtin';
  name: string;
}

export class PriceBook {
  private readonly store: PriceStore;
  private readonly builtins: ReadonlyMap<string, TokenPrices>;
  private readonly aliases: ReadonlyMap<string, string>;
  private readonly now: () => number;
  private overrides = new Map<string, TokenPrices>();
  private overridesVersion: number | undefined;
  /**
   * find()'s answers by model and upstream name, for the overrides of overridesVersion (dropped with them): asked
   * for every request, and working out the names to look up under costs more than the lookup.
   */
  private readonly found = new AnswerCache<FoundPrice | null>(2000);

  constructor(store: PriceStore, options: PriceBookOptions = {}) {
    this.store = store;
    const builtins = options.builtins ?? builtinPrices;
    this.builtins = new Map(
      Object.entries(builtins).map(([model, price]) => [model.toLowerCase(), toTokenPrices(price)]),
    );
    this.aliases = new Map(Object.entries(options.aliases ?? builtinAliases));
    this.now = options.now ?? Date.now;
  }

  /** The price for this request's model: an override under any of its names first, then the bundled table. */
  find(target: PriceTarget): FoundPrice | null {
    const overrides = this.currentOverrides();
    const known = this.found.get(target.model, target.upstreamModel);
    if (known !== undefined) return known;
    const found = lookUp(target, overrides, this.aliases, this.builtins);
    this.found.set(target.model, target.upstreamModel, found);
    return found;
  }

  /** The price `<provider>/<model>` is charged at, under the name it was found by; null when unpriced. */
  priceOf(model: string): ModelPriceInfo | null {
    const found = this.find({ model, provider: null, upstreamModel: null });
    return found && toInfo(found.name, found.source, found.prices);
  }

  /** The cost of a request; usage null (nothing was generated) costs 0. */
  costOf(target: PriceTarget, usage: Usage | null): PricedCost {
    const reported = usage?.cost;
    if (typeof reported === 'number' && Number.isFinite(reported) && reported >= 0) {
      return priced(usdToNanos(reported), 'upstream');
    }
    const found = this.find(target);
    if (!found) return { cost: 0, costNanos: 0, unpriced: true, source: null };
    return priced(usage ? costInNanos(usage, found.prices) : 0, found.source);
  }

  /** Overrides first, then the bundled prices that no override replaces; USD per million tokens. */
  list(): ModelPriceInfo[] {
    const overrides = this.store.listPrices().map((row) => toInfo(row.model, 'override', rowPrices(row)));
    const overridden = new Set(overrides.map((info) => info.model.toLowerCase()));
    const builtins = [...this.builtins]
      .filter(([model]) => !overridden.has(model))
      .map(([model, prices]) => toInfo(model, 'builtin', prices));
    return [...overrides, ...builtins];
  }

  /** Stores an override. Throws ApiError(400) for a bad model name or price. */
  async set(model: string, price: PriceInput): Promise<ModelPriceInfo> {
    const name = validateModelName(model);
    const row: PriceRow = {
      model: name,
      inputPico: picoOf('input', price.input),
      outputPico: picoOf('output', price.output),
      cacheReadPico: price.cacheRead == null ? null : picoOf('cache read', price.cacheRead),
      cacheWritePico: price.cacheWrite == null ? null : picoOf('cache write', price.cacheWrite),
      updatedAt: this.now(),
    };
    await this.store.setPrice(row);
    return toInfo(name, 'override', rowPrices(row));
  }

  /** False when there was no override for this model. */
  async unset(model: string): Promise<boolean> {
    return this.store.removePrice(validateModelName(model));
  }

  private currentOverrides(): Map<string, TokenPrices> {
    const version = this.store.changeVersion();
    if (version !== this.overridesVersion) {
      this.overrides = new Map(this.store.listPrices().map((row) => [row.model.toLowerCase(), rowPrices(row)]));
      this.overridesVersion = version;
      this.found.clear();
    }
    return this.overrides;
  }
}

/** find() without the cache. */
function lookUp(
  target: PriceTarget,
  overrides: ReadonlyMap<string, TokenPrices>,
  aliases: ReadonlyMap<string, string>,
  builtins: ReadonlyMap<string, TokenPrices>,
): FoundPrice | null {
  const names = priceLookupNames(target);
  for (const name of names) {
    const prices = overrides.get(name);
    if (prices) return { prices, source: 'override', name };
  }
  for (const name of names) {
    const builtin = aliases.get(name) ?? name;
    const prices = builtins.get(builtin);
    if (prices) return { prices, source: 'builtin', name: builtin };
  }
  return null;
}

function priced(costNanos: number, source: PricedCost['source']): PricedCost {
  return { cost: nanosToUsd(costNanos), costNanos, unpriced: false, source };
}

function rowPrices({ inputPico, outputPico, cacheReadPico, cacheWritePico }: PriceRow): TokenPrices {
  return { inputPico, outputPico, cacheReadPico, cacheWritePico };
}

function toInfo(model: string, source: ModelPriceInfo['source'], prices: TokenPrices): ModelPriceInfo {
  return {
    model,
    source,
    input: picoToUsdPerMillion(prices.inputPico),
    output: picoToUsdPerMillion(prices.outputPico),
    cache_read: prices.cacheReadPico === null ? null : picoToUsdPerMillion(prices.cacheReadPico),
    cache_write: prices.cacheWritePico === null ? null : picoToUsdPerMillion(prices.cacheWritePico),
  };
}

function validateModelName(model: unknown): string {
  const name = typeof model === 'string' ? model.trim() : '';
  if (name === '' || name.length > maxModelNameLength || /[\s\p{Cc}]/u.test(name)) {
    throw new ApiError(400, `A model name must be 1 to ${maxModelNameLength} characters without spaces.`);
  }
  return name;
}

function picoOf(what: string, usdPerMillion: number): number {
  // Up to $1 million per million tokens: far above any real price, and keeps every cost a safe integer.
  if (
    typeof usdPerMillion !== 'number' ||
    !Number.isFinite(usdPerMillion) ||
    usdPerMillion < 0 ||
    usdPerMillion > 1e6
  ) {
    throw new ApiError(400, `The ${what} price must be a number of USD per million tokens from 0 to 1000000.`);
  }
  return usdPerMillionToPico(usdPerMillion);
}
