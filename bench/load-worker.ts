// The load generator's process (forked by bench/processes.ts): runs each job it is sent and sends back the result.

import { runLoad, type LoadJob } from './load-generator.js';

process.on('message', (job: LoadJob) => {
  void runLoad(job).then((result) => process.send?.(result));
});
process.on('disconnect', () => process.exit(0));
