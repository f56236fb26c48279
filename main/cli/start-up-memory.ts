// One full garbage collection when `switchyard serve` has finished starting, before it listens. Loading the modules
// grows V8's young generation to its full size (32 MB on Node 24), and V8 13 keeps it committed for as long as the
// process idles: its memory reducer, which would give it back, starts only when the allocation rate is low next to
// the collection speeds it measured during start-up, and on a busy machine it can wait for minutes. A full
// collection shrinks the young generation to what survives (about 1 MB). It takes 130–170 ms, once, while nothing
// is listening yet, so no request waits for it (decision 018).
//
// `gc` exists only with --expose-gc, a V8 flag that a process can still set for itself: contexts created afterwards
// get the function. A process started with --expose-gc has it on its own global already.

import v8 from 'node:v8';
import vm from 'node:vm';

export function collectStartUpGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as unknown;
  if (typeof gc === 'function') (gc as () => void)();
}
