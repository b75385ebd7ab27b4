import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * A worker spec for SimilarityRunner that runs main/core/knowledge/similarity-worker.ts from the
 * TypeScript sources, for tests that must see tasks really cross to a worker thread. A tiny
 * bootstrap registers tsx (a devDependency) inside the worker, then imports the entry. The product
 * never does this: it runs the compiled out/main/similarity-worker.js, or computes in-thread.
 */
export function sourceWorkerSpec(): { filename: string; options: WorkerOptions } {
  const entry = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../main/core/knowledge/similarity-worker.ts')).href;
  const tsxApi = pathToFileURL(tsxEsmApi()).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { (api.register ?? api.default.register)(); return import(${JSON.stringify(entry)}); });`;
  return { filename: bootstrap, options: { eval: true } };
}

/** tsx's ESM register API (its `import` export: the CommonJS one cannot register ESM hooks from a worker). */
function tsxEsmApi(): string {
  const packageFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { exports: Record<string, { import: string | { default: string } }> }).exports['./esm/api']!.import;
  return path.join(path.dirname(packageFile), typeof exported === 'string' ? exported : exported.default);
}
