import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerSpec } from '../../main/core/receipts/hash-pool';

/**
 * A worker spec for HashPool that runs main/core/receipts/receipt-hash-worker.ts from the
 * TypeScript sources, for tests that must see blocks really cross to worker threads. A tiny
 * bootstrap registers tsx (a devDependency) inside the worker, then imports the entry. The
 * product never does this: it runs the compiled out/main/receipt-hash-worker.js, or hashes in-thread.
 */
export function sourceHashWorkerSpec(): WorkerSpec {
  const entry = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../main/core/receipts/receipt-hash-worker.ts')).href;
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
