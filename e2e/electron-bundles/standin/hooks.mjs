// Module resolution hooks for the built main bundle under test. The bundle file itself is loaded
// unmodified; only the specifier `electron` is mapped to the stand-in. When the test runs a
// mutated copy of `out/` from a temp folder, STANDIN_RESOLVE_FROM (a file URL inside the repo)
// resolves the bundle's other bare imports (better-sqlite3, chokidar…) from the repo's node_modules.
const standin = new URL('./electron.mjs', import.meta.url).href;
const resolveFrom = process.env.STANDIN_RESOLVE_FROM;
const isBare = (specifier) => !/^(?:[./]|[a-z][a-z0-9+.-]*:)/i.test(specifier);

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: standin, shortCircuit: true };
  if (resolveFrom && isBare(specifier) && !specifier.startsWith('#')) {
    try {
      return await nextResolve(specifier, context);
    } catch {
      return nextResolve(specifier, { ...context, parentURL: resolveFrom });
    }
  }
  return nextResolve(specifier, context);
}
