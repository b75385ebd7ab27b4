// `node --import ./testing/cli/worker-probe.mjs …` with WORKER_PROBE_LOG=<file>: records, one JSON
// line each, every worker thread the process starts (its filename, or "eval") and when it comes
// online, so a test can see which file the knowledge model's similarity worker was started from.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import workerThreads from 'node:worker_threads';

const log = process.env.WORKER_PROBE_LOG;
if (log && isMainThread) {
  const record = (entry) => fs.appendFileSync(log, JSON.stringify(entry) + '\n');
  const Original = workerThreads.Worker;
  workerThreads.Worker = class ProbedWorker extends Original {
    constructor(filename, options = {}) {
      const file = options.eval ? 'eval' : filename instanceof URL ? filename.href : String(filename);
      super(filename, options);
      record({ event: 'start', file, name: options.name ?? null });
      this.once('online', () => record({ event: 'online', file, name: options.name ?? null }));
    }
  };
  // `import { Worker } from 'node:worker_threads'` in the bundles now sees the probed class.
  syncBuiltinESMExports();
}
