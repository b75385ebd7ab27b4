// `node --import <this file> out/main/index.js`: makes the specifier `electron` load the stand-in,
// and starts the test-side driver on the same module instance (the hook maps `electron` to this
// folder's electron.mjs). Worker threads inherit --import: they get the hook, not a second driver.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

register('./hooks.mjs', import.meta.url);
if (isMainThread) await import('./driver.mjs');
