#!/usr/bin/env node
// Runs the CLI as built by `npm run build` (out/main/cli.js, compiled with the desktop app's main
// bundle and sharing its chunks), so every command runs the same core the app does and nothing
// compiles TypeScript at run time.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../out/main/cli.js', import.meta.url);
if (!fs.existsSync(fileURLToPath(cli))) {
  console.error('swarm-console: the CLI is not built (no out/main/cli.js); run `npm run build` first.');
  process.exit(2);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
