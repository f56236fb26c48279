export { createApp, type App, type AppOptions } from './create-app.js';
export { defaultDataDir, resolveDataDir, productName } from './data-dir.js';
