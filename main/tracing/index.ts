export { startTracing, type Tracing } from './tracing.js';
export { traceSettingsFrom, type TraceSettings } from './trace-settings.js';
