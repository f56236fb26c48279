export { createApp, type App, type AppOptions } from './create-app.js';
export { openApp, type OpenAppOptions } from './open-app.js';
export { defaultDataDir, resolveDataDir, productName } from './data-dir.js';
export { RegistrySetting } from './registry-setting.js';
