import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { checkNativeModule } from './native-module';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

test('better-sqlite3 is rebuilt for the installed Electron and unpacked from the asar archive with the worker', async () => {
  const report = await checkNativeModule();
  expect(report.problems).toEqual([]);
  expect(report.electronAbi).not.toBe(report.nodeAbi);
  expect(report.rebuildTargets).toEqual({ installAppDeps: report.electronVersion, dist: report.electronVersion });
  // The tests themselves run under Node, so here the addon must be built for Node's ABI.
  expect(report.betterSqliteAbi).toBe(report.nodeAbi);
  expect(report.unpackedNativeFiles).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  expect(report.unpackedWorkerFiles).toContain('out/main/similarity-worker.js');
  expect(report.unpackedWorkerFiles.some((f) => /^out\/main\/similarity-tasks-.*\.js$/.test(f))).toBe(true);
  expect(report.unpackedWorkerFiles).toContain('out/main/receipt-hash-worker.js');
  expect(report.unpackedWorkerFiles.some((f) => /^out\/main\/receipt-hash-lines-.*\.js$/.test(f))).toBe(true);
});

test('the check fails when asarUnpack no longer covers the addon or the worker', async () => {
  // A copy of the few files the check reads, with node_modules and out linked from the repo.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-native-'));
  try {
    for (const file of ['package.json', 'package-lock.json', 'README.md']) fs.copyFileSync(path.join(repoRoot, file), path.join(root, file));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
    fs.symlinkSync(path.join(repoRoot, 'out'), path.join(root, 'out'));
    fs.mkdirSync(path.join(root, 'build'));
    const config = fs.readFileSync(path.join(repoRoot, 'build', 'electron-builder.yml'), 'utf8');
    expect(config).toContain('  - node_modules/better-sqlite3/**\n');
    expect(config).toContain('  - out/main/similarity-*.js\n');
    expect(config).toContain('  - out/main/receipt-hash-*.js\n');
    fs.writeFileSync(
      path.join(root, 'build', 'electron-builder.yml'),
      config.replace('  - node_modules/better-sqlite3/**\n', '').replace('  - out/main/similarity-*.js\n', '  - out/main/similarity-worker.js\n').replace('  - out/main/receipt-hash-*.js\n', ''),
    );
    const { problems } = await checkNativeModule(root);
    expect(problems).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node would stay inside app.asar, where it cannot be loaded');
    expect(problems.some((p) => /^out\/main\/similarity-tasks-.*\.js is started or imported by the worker thread/.test(p))).toBe(true);
    expect(problems).toContain('out/main/receipt-hash-worker.js is started or imported by the worker thread but would stay inside app.asar');
    expect(problems.some((p) => /^out\/main\/receipt-hash-lines-.*\.js is started or imported by the worker thread/.test(p))).toBe(true);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
