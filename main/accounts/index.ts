// Gateway API keys and the usage log.

export { ApiKeys, type ApiKeysOptions, type KeyStore } from './api-keys.js';
export { UsageLog, UsageRowRejectedError, type UsageLogOptions, type UsageStore } from './usage-log.js';
