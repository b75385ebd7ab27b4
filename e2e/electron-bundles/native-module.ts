/**
 * better-sqlite3 under Electron's ABI, checked without the Electron binary.
 *
 * `npm run check:native` prints the findings; native-module.spec.ts asserts them in `npm test`.
 * The ABI numbers come from node-abi (installed with electron-builder) and are cross-checked with
 * the `abi_version` file the electron package ships; the Electron version that the README's rebuild
 * step and `npm run dist` rebuild for comes from app-builder-lib's own getElectronVersion, the
 * function `electron-builder install-app-deps` calls.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const requireFromRepo = createRequire(path.join(repoRoot, 'package.json'));

export interface NativeModuleReport {
  electronVersion: string;
  /** NODE_MODULE_VERSION of that Electron, from node-abi. */
  electronAbi: string;
  /** The same, from node_modules/electron/abi_version. */
  electronAbiShipped: string | null;
  nodeAbi: string;
  /** What `electron-builder install-app-deps` (and `npm run dist`) rebuild native modules for. */
  rebuildTargets: { installAppDeps: string; dist: string };
  /** NODE_MODULE_VERSION better_sqlite3.node is built for right now (probe-loaded under Node). */
  betterSqliteAbi: string | null;
  asarUnpack: string[];
  /** Repo-relative files that `npm run dist` puts in app.asar.unpacked: native addons and the worker. */
  unpackedNativeFiles: string[];
  unpackedWorkerFiles: string[];
  problems: string[];
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...filesUnder(full));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** Which NODE_MODULE_VERSION the installed better_sqlite3.node loads under; null if it loads nowhere we can tell. */
function probeBetterSqliteAbi(nodeAbi: string): string | null {
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: repoRoot, encoding: 'utf8' });
  if (probe.status === 0) return nodeAbi;
  return /NODE_MODULE_VERSION (\d+)/.exec(probe.stderr)?.[1] ?? null;
}

export async function checkNativeModule(root = repoRoot): Promise<NativeModuleReport> {
  const problems: string[] = [];
  const pkg = readJson(path.join(root, 'package.json'));
  const electronVersion: string = readJson(path.join(root, 'node_modules', 'electron', 'package.json')).version;
  const semver = requireFromRepo('semver');
  if (!semver.satisfies(electronVersion, pkg.devDependencies?.electron)) problems.push(`installed electron ${electronVersion} is outside package.json's ${pkg.devDependencies?.electron}`);

  const nodeAbi = requireFromRepo('node-abi');
  const electronAbi: string = nodeAbi.getAbi(electronVersion, 'electron');
  const shippedFile = path.join(root, 'node_modules', 'electron', 'abi_version');
  const electronAbiShipped = fs.existsSync(shippedFile) ? fs.readFileSync(shippedFile, 'utf8').trim() : null;
  if (electronAbiShipped !== null && electronAbiShipped !== electronAbi) problems.push(`node-abi maps electron ${electronVersion} to ${electronAbi}, the electron package says ${electronAbiShipped}`);
  if (electronAbi === process.versions.modules) problems.push(`electron ${electronVersion} shares Node's ABI ${electronAbi}: the dual-ABI steps in the README would be wrong`);

  // The README's rebuild step and `npm run dist` must rebuild for exactly that Electron.
  const { getElectronVersion } = requireFromRepo('app-builder-lib/out/electron/electronVersion');
  const yaml = requireFromRepo('js-yaml');
  const builderConfig = yaml.load(fs.readFileSync(path.join(root, 'build', 'electron-builder.yml'), 'utf8')) as { asarUnpack?: string[]; npmRebuild?: boolean; electronVersion?: string };
  const rebuildTargets = { installAppDeps: await getElectronVersion(root), dist: await getElectronVersion(root, builderConfig) };
  for (const [step, version] of Object.entries(rebuildTargets)) {
    if (version !== electronVersion) problems.push(`${step} rebuilds native modules for electron ${version}, but electron ${electronVersion} is installed`);
  }
  if (builderConfig.npmRebuild !== true) problems.push('build/electron-builder.yml does not rebuild native modules while packaging (npmRebuild)');
  if (!pkg.dependencies?.['better-sqlite3']) problems.push('better-sqlite3 is not in dependencies: electron-builder neither rebuilds nor packs it');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  if (!readme.includes('npx electron-builder install-app-deps')) problems.push('the README names no rebuild step for Electron (npx electron-builder install-app-deps)');
  const major = electronVersion.split('.')[0];
  if (!readme.includes(`Electron ${major} needs NODE_MODULE_VERSION ${electronAbi}`)) problems.push(`the README does not say "Electron ${major} needs NODE_MODULE_VERSION ${electronAbi}"`);

  // Unpacked from the asar archive: every native addon the app ships, and the worker with its imports.
  const { minimatch } = requireFromRepo('minimatch');
  const asarUnpack = builderConfig.asarUnpack ?? [];
  const unpacked = (file: string) => asarUnpack.some((pattern) => minimatch(file, pattern, { dot: true }));
  const lock = readJson(path.join(root, 'package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
  const shipped = Object.entries(lock.packages).filter(([key, entry]) => key.startsWith('node_modules/') && !entry.dev && fs.existsSync(path.join(root, key)));
  const nativeFiles = shipped.flatMap(([key]) => filesUnder(path.join(root, key))).filter((file) => file.endsWith('.node')).map((file) => path.relative(root, file).split(path.sep).join('/'));
  if (!nativeFiles.includes('node_modules/better-sqlite3/build/Release/better_sqlite3.node')) problems.push('better-sqlite3 has no build/Release/better_sqlite3.node');
  for (const file of nativeFiles.filter((f) => !unpacked(f))) problems.push(`${file} would stay inside app.asar, where it cannot be loaded`);

  const mainOut = path.join(root, 'out', 'main');
  // Every worker thread's entry and the chunks it imports (worker_threads loads them by file).
  const workers = ['out/main/similarity-worker.js', 'out/main/receipt-hash-worker.js'];
  const workerFiles: string[] = [];
  for (const worker of workers) {
    if (!fs.existsSync(path.join(root, worker))) {
      problems.push(`${worker} is missing: run npm run build first`);
      continue;
    }
    const imports = [...fs.readFileSync(path.join(root, worker), 'utf8').matchAll(/from\s*["']\.\/([^"']+)["']/g)].map((m) => `out/main/${m[1]}`);
    workerFiles.push(worker, ...imports);
  }
  for (const file of workerFiles.filter((f) => !unpacked(f))) problems.push(`${file} is started or imported by the worker thread but would stay inside app.asar`);
  const unpackedOut = fs.existsSync(mainOut) ? fs.readdirSync(mainOut).map((f) => `out/main/${f}`).filter(unpacked) : [];
  if (unpackedOut.includes('out/main/index.js')) problems.push('out/main/index.js is unpacked: the asarUnpack pattern for the worker is too wide');

  const betterSqliteAbi = probeBetterSqliteAbi(process.versions.modules);
  return {
    electronVersion,
    electronAbi,
    electronAbiShipped,
    nodeAbi: process.versions.modules,
    rebuildTargets,
    betterSqliteAbi,
    asarUnpack,
    unpackedNativeFiles: nativeFiles.filter(unpacked),
    unpackedWorkerFiles: unpackedOut,
    problems,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const report = await checkNativeModule();
  const builtFor = report.betterSqliteAbi === report.nodeAbi ? "Node's" : report.betterSqliteAbi === report.electronAbi ? "Electron's" : 'an unknown';
  console.log(`electron ${report.electronVersion}: NODE_MODULE_VERSION ${report.electronAbi} (node-abi; the electron package says ${report.electronAbiShipped ?? 'nothing'})`);
  console.log(`node ${process.versions.node}: NODE_MODULE_VERSION ${report.nodeAbi}`);
  console.log(`electron-builder install-app-deps rebuilds for electron ${report.rebuildTargets.installAppDeps}; npm run dist for ${report.rebuildTargets.dist}`);
  console.log(`better_sqlite3.node is built for NODE_MODULE_VERSION ${report.betterSqliteAbi ?? '?'} (${builtFor} ABI)`);
  console.log(`app.asar.unpacked gets: ${[...report.unpackedNativeFiles, ...report.unpackedWorkerFiles].join(', ')}`);
  for (const problem of report.problems) console.log(`PROBLEM: ${problem}`);
  process.exitCode = report.problems.length ? 1 : 0;
}
