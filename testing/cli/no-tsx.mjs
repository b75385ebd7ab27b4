// `node --import ./testing/cli/no-tsx.mjs …`: makes tsx unloadable in that process (and its worker
// threads, which inherit execArgv), through both loaders: ESM resolution (a module.register hook)
// and CommonJS require. Shows that what users run (bin/swarm-console.mjs → out/main/cli.js)
// needs no TypeScript compiler at run time. node_modules is shared, so tsx cannot be removed.
import Module, { register } from 'node:module';

const REFUSED = /^tsx($|\/)/;
const refusal = (specifier) => Object.assign(new Error(`no-tsx: "${specifier}" may not be loaded here`), { code: 'ERR_NO_TSX' });

register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
      if (${REFUSED}.test(specifier)) throw Object.assign(new Error('no-tsx: "' + specifier + '" may not be loaded here'), { code: 'ERR_NO_TSX' });
      const resolved = await next(specifier, context);
      if (/[\\\\/]node_modules[\\\\/]tsx[\\\\/]/.test(resolved.url)) throw Object.assign(new Error('no-tsx: "' + resolved.url + '" may not be loaded here'), { code: 'ERR_NO_TSX' });
      return resolved;
    }`),
);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (REFUSED.test(request)) throw refusal(request);
  const file = resolveFilename.call(this, request, ...rest);
  if (/[\\/]node_modules[\\/]tsx[\\/]/.test(file)) throw refusal(file);
  return file;
};
