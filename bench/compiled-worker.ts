/**
 * Workers compiled to one JavaScript file each, as the built app runs them (`out/main/<name>.js`,
 * see electron.vite.config.ts), for a bench child that times a worker's start. A worker started
 * from the TypeScript sources (testing/workers/source-worker.ts) registers tsx and transpiles
 * every module it loads: about 0.74 s of CPU before it is ready, against 0.11 s for the compiled
 * file — a cost of the harness, which the ingest figures would otherwise count as ingest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerSpec } from '../main/core/platform/util/built-worker';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ENTRIES: Record<string, string> = {
  'ingest-parse-worker': 'main/core/store-index/parse-worker.ts',
};

/**
 * Compiles the named workers into `outDir` with esbuild (what electron-vite uses underneath;
 * native modules stay external as in the app) and returns a resolver for
 * `startWorkersFromSources`; null when esbuild cannot be loaded (the caller then starts them
 * from sources and should say so).
 */
export async function compiledWorkers(outDir: string, names: readonly string[]): Promise<((name: string) => WorkerSpec | null) | null> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return null;
  }
  fs.mkdirSync(outDir, { recursive: true });
  const files = new Map<string, string>();
  for (const name of names) {
    const entry = ENTRIES[name];
    if (!entry) continue;
    const outfile = path.join(outDir, `${name}.mjs`);
    await esbuild.build({
      entryPoints: [path.join(repo, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      external: ['better-sqlite3', 'chokidar', 'electron'],
      logLevel: 'error',
    });
    files.set(name, outfile);
  }
  return (name) => {
    const filename = files.get(name);
    return filename ? { filename, options: {} } : null;
  };
}
