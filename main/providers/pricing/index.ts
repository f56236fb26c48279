// Model prices and the cost of a request (decision 004).

export { builtinAliases, builtinPrices } from './builtin-prices.js';
export { costInNanos } from './compute-cost.js';
export { toTokenPrices, type ModelPrice, type TokenPrices } from './model-price.js';
export { priceLookupNames, type PriceTarget } from './model-names.js';
export { PriceBook, type PriceBookOptions, type PriceInput, type PricedCost, type PriceStore } from './price-book.js';
