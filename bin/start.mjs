#!/usr/bin/env node
// `npm start`: build what is stale, then open the console (desktop, or the browser host when
// Electron cannot start on this machine).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'out', '.build-stamp');

function newestSourceTime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ['renderer', 'shared', 'preload', 'main'].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (builtAt < Math.max(...sources.map(newestSourceTime), fs.statSync(path.join(root, 'electron.vite.config.ts')).mtimeMs)) {
  console.log('Building the console (electron-vite build)…');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString() + '\n');
}
const cli = spawnSync(process.execPath, [path.join(root, 'bin', 'swarm-console.mjs'), 'open', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  // The browser host's sign-in page names the command the person ran.
  env: { ...process.env, SWARM_CONSOLE_COMMAND: 'npm start' },
});
process.exit(cli.status ?? 1);
