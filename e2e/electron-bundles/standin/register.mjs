// `node --import <this file> out/main/index.js`: makes the specifier `electron` load the stand-in.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
