// Gateway API keys, key rules, credits, rate limits and the usage log.

export {
  Accounts,
  maxCreditsUsd,
  type AccountsOptions,
  type AccountsStore,
  type AdmissionRequest,
} from './accounts.js';
export { ApiKeys, type ApiKeysOptions, type KeyStore } from './api-keys.js';
export { applyRulesChange, modelAllowed, toApiRules } from './key-rules.js';
export { lockedState } from './key-state.js';
export { RateLimiter } from './rate-limiter.js';
export { SpendTracker, type PendingUsage, type SpendStore } from './spend-tracker.js';
export { UsageLog, UsageRowRejectedError, type UsageLogOptions, type UsageStore } from './usage-log.js';
export { dayOf, windowEnd, windowStart } from './usage-windows.js';
export { csvCell, toCsv, type CsvValue } from './csv.js';
export { usageRowsCsv, usageSummaryCsv } from './usage-csv.js';
