import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import solid from 'vite-plugin-solid';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // better-sqlite3, chokidar… stay external: native modules cannot be bundled.
      externalizeDeps: true,
      // Three entries built together, so the desktop app and the CLI run the same compiled core
      // (shared chunks): `index` is Electron's main process; `cli` is what bin/swarm-console.mjs
      // runs (no TypeScript at run time); the knowledge model's similarity worker, the receipt
      // hash worker and the store index's parse worker are entries of their own because
      // worker_threads loads them by file (main/core/knowledge/similarity-runner.ts,
      // main/core/receipts/hash-pool.ts and main/core/store-index/parse-runner.ts look for
      // similarity-worker.js / receipt-hash-worker.js / ingest-parse-worker.js next to the bundle).
      lib: {
        entry: {
          index: resolve(root, 'main/index.ts'),
          cli: resolve(root, 'main/cli.ts'),
          'similarity-worker': resolve(root, 'main/core/knowledge/similarity-worker.ts'),
          'receipt-hash-worker': resolve(root, 'main/core/receipts/receipt-hash-worker.ts'),
          'ingest-parse-worker': resolve(root, 'main/core/store-index/parse-worker.ts'),
        },
        formats: ['es'],
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // A sandboxed preload cannot require node_modules: bundle everything into one CommonJS file.
      externalizeDeps: false,
      lib: { entry: resolve(root, 'preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
      rollupOptions: { external: ['electron'] },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [solid()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
