import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

export type WorkerSpec = { filename: string; options: WorkerOptions };

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
  if (here.endsWith('.ts')) return null;
  const unpacked = here.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  for (const dir of [path.dirname(unpacked), path.dirname(path.dirname(unpacked))]) {
    const file = path.join(dir, `${name}.js`);
    if (fs.existsSync(file)) return { filename: file, options: {} };
  }
  return null;
}
