import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerSpec } from '../../main/core/platform/util/built-worker';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A worker spec that runs a worker entry from the TypeScript sources, for tests that must see
 * work really cross to worker threads: a tiny bootstrap registers tsx (a devDependency) inside the
 * worker, then imports the entry. The product never does this: it runs the compiled
 * `out/main/<name>.js` (platform/util/built-worker.ts), or works in-thread.
 */
function sourceWorkerFor(entryFromRepo: string): WorkerSpec {
  const entry = pathToFileURL(path.join(repoRoot, entryFromRepo)).href;
  const tsxApi = pathToFileURL(tsxEsmApi()).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { (api.register ?? api.default.register)(); return import(${JSON.stringify(entry)}); });`;
  return { filename: bootstrap, options: { eval: true } };
}

/** Any worker of main/ by its built name, from sources (for startWorkersFromSources). */
export const sourceWorkerByName = (name: string): WorkerSpec | null => {
  const entries: Record<string, string> = {
    'similarity-worker': 'main/core/knowledge/similarity-worker.ts',
    'receipt-hash-worker': 'main/core/receipts/receipt-hash-worker.ts',
    'ingest-parse-worker': 'main/core/store-index/parse-worker.ts',
  };
  return entries[name] ? sourceWorkerFor(entries[name]) : null;
};

/** The knowledge model's similarity worker, from sources. */
export const sourceWorkerSpec = (): WorkerSpec => sourceWorkerFor('main/core/knowledge/similarity-worker.ts');

/** The store index's parse worker, from sources. */
export const sourceParseWorkerSpec = (): WorkerSpec => sourceWorkerFor('main/core/store-index/parse-worker.ts');

/** The receipt verifier's hash worker, from sources. */
export const sourceHashWorkerSpec = (): WorkerSpec => sourceWorkerFor('main/core/receipts/receipt-hash-worker.ts');

/** tsx's ESM register API (its `import` export: the CommonJS one cannot register ESM hooks from a worker). */
function tsxEsmApi(): string {
  const packageFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { exports: Record<string, { import: string | { default: string } }> }).exports['./esm/api']!.import;
  return path.join(path.dirname(packageFile), typeof exported === 'string' ? exported : exported.default);
}
