// Events and disposables: one listener type for main, the bridge transports and tests.

export { DisposableStore, Emitter, toDisposable, type Disposable, type EmitterOptions, type Event } from './emitter.js';
