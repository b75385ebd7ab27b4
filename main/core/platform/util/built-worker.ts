import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export type WorkerSpec = { filename: string; options: WorkerOptions };

/** How to start a worker from the TypeScript sources, where a harness says so (see startWorkersFromSources). */
let fromSources: ((name: string) => WorkerSpec | null) | null = null;

/**
 * For a harness running the core from its TypeScript sources (`npm run bench`): start the named
 * workers its way (testing/workers/source-worker.ts registers tsx inside the worker) instead of
 * working in-thread, so what it measures is what the built app does — clustering and the tier
 * merge on a worker thread. The product never calls this.
 */
export function startWorkersFromSources(resolve: ((name: string) => WorkerSpec | null) | null): void {
  fromSources = resolve;
}

/**
 * The compiled worker `<name>.js` that electron-vite emits next to the bundle (out/main/, shared by
 * the app's index.js and the CLI's cli.js; one folder up, should the calling module land in a chunk
 * folder). A packaged app keeps it beside the archive, unpacked (build/electron-builder.yml).
 * Null from the TypeScript sources (vitest), where there is no compiled worker and nothing compiles
 * TypeScript at run time: callers then work in-thread, and tests pass their own spec
 * (testing/workers/source-worker.ts). `callerUrl` is the caller's `import.meta.url`.
 */
export function builtWorker(callerUrl: string, name: string): WorkerSpec | null {
  const here = fileURLToPath(callerUrl);
  if (here.endsWith('.ts')) return fromSources?.(name) ?? null;
  const unpacked = here.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  for (const dir of [path.dirname(unpacked), path.dirname(path.dirname(unpacked))]) {
    const file = path.join(dir, `${name}.js`);
    if (fs.existsSync(file)) return { filename: file, options: {} };
  }
  return null;
}

/**
 * Starts a worker from `spec` and resolves once it has posted its first message (it says it is
 * ready), unref'd so an idle worker never keeps the process alive; rejects when it cannot start,
 * errs or exits first (callers then work in-thread).
 */
export function startReadyWorker(spec: WorkerSpec, name: string): Promise<Worker> {
  return new Promise<Worker>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(spec.filename, { ...spec.options, name });
    } catch (error) {
      return reject(error as Error);
    }
    const onError = (error: Error) => reject(error);
    const onExit = (code: number) => reject(new Error(`it exited with code ${code} while starting`));
    worker.once('message', () => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      worker.unref();
      resolve(worker);
    });
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}
