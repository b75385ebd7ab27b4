#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx, so a clone needs no build step
// for `inspect`, `verify`, `denials` or `serve` (serve still needs the built renderer).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../main/cli.ts');
process.exitCode = await main(process.argv.slice(2));
