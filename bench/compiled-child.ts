/**
 * The benches' child processes compiled to JavaScript as the app ships its core: the child entries
 * (stores-ingest-child.ts, knowledge-reopen-child.ts) and the core's workers, one ES module file
 * each, side by side as electron-vite emits `out/main/index.js` and `out/main/ingest-parse-worker.js`
 * (so a child finds the workers as the app does, platform/util/built-worker.ts). Run from the
 * TypeScript sources, tsx would count in the children's figures: its transpiler held about 40 MB
 * of RSS before the index opened, and a worker from sources (testing/workers/source-worker.ts)
 * spends about 0.74 s of CPU transpiling before it is ready, against 0.11 s compiled.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The children, and the workers the core starts (named as electron.vite.config.ts names them). */
const ENTRIES: Record<string, string> = {
  'stores-ingest-child': 'bench/stores-ingest-child.ts',
  'knowledge-reopen-child': 'bench/knowledge-reopen-child.ts',
  'ingest-parse-worker': 'main/core/store-index/parse-worker.ts',
  'similarity-worker': 'main/core/knowledge/similarity-worker.ts',
  'receipt-hash-worker': 'main/core/receipts/receipt-hash-worker.ts',
};

export type BenchChild = 'stores-ingest-child' | 'knowledge-reopen-child';

let compiledDir: string | null | undefined;

/**
 * The compiled child's file. Every entry is built once per bench process, under `.bench/` (inside
 * the repo, so the native modules left external resolve from its node_modules as they do for
 * out/main/); null when esbuild (what electron-vite uses underneath) cannot be loaded — the caller
 * then runs the child from sources and should say so.
 */
export function compiledChild(child: BenchChild): string | null {
  if (compiledDir === undefined) compiledDir = compile();
  return compiledDir && path.join(compiledDir, `${child}.js`);
}

function compile(): string | null {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  } catch {
    return null;
  }
  const outDir = path.join(repo, '.bench', `compiled-${process.pid}`);
  fs.mkdirSync(outDir, { recursive: true });
  process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
  // `.js` files in ES module format, as out/main/ holds them (the repo's package.json says "module").
  fs.writeFileSync(path.join(outDir, 'package.json'), '{"type":"module"}\n');
  for (const [name, entry] of Object.entries(ENTRIES)) {
    esbuild.buildSync({
      entryPoints: [path.join(repo, entry)],
      outfile: path.join(outDir, `${name}.js`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      external: ['better-sqlite3', 'chokidar', 'electron'],
      // Bundled CommonJS packages that require Node's modules (child_process, for one) get a `require`, as out/main/ resolves them.
      banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
      logLevel: 'error',
    });
  }
  return outDir;
}
