// The layer table (testing/layers/layer-table.ts) over every source file of the repo, and a self-check that the
// checker fails on each kind of break. The self-check plants its breaks in memory: nothing is written to the tree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers, formatViolation } from '../testing/layers/check-layers';
import { buildImportGraph, importsOf } from '../testing/layers/import-graph';
import { LAYER_TABLE, type LayerTable } from '../testing/layers/layer-table';
import { readRepoSources } from '../testing/layers/repo-sources';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The synthetic trees below hold none of the real tree's excepted imports, so they are checked without the
// exceptions (which would otherwise be reported stale); the real tree is checked with the whole table.
const SYNTHETIC_TABLE: LayerTable = { ...LAYER_TABLE, exceptions: [] };
const check = (sources: Map<string, string>, table = SYNTHETIC_TABLE) => checkLayers(buildImportGraph(sources), table).map(formatViolation);
// Built from parts so that no scan of this file for electron imports could trip over it.
const ELECTRON = ['elec', 'tron'].join('');

describe('the layer table', () => {
  it('holds for every source file of main/, preload/, renderer/, shared/, testing/, e2e/ and bench/', () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const sources = readRepoSources(repoRoot);
    expect(sources.size).toBeGreaterThan(300); // the walk found the tree, not an empty folder
    expect(check(sources, LAYER_TABLE)).toEqual([]);
    // About 2 s of CPU; logged, not asserted, because wall-clock time on a shared machine says little.
    const { user, system } = process.cpuUsage(cpu);
    console.info(`layers: ${sources.size} files in ${Math.round(performance.now() - started)} ms (${Math.round((user + system) / 1000)} ms CPU)`);
  });

  it('sees every way a file imports another', () => {
    const source = [
      "import { a } from './static';",
      "import type { B } from './type-only';",
      "import { type C, type D } from './inline-types';",
      "export type { E } from './export-type';",
      "export * from './export-star';",
      "import './side-effect';",
      'type F = import("./import-type").F;',
      'async function g() { await import("./dynamic"); }',
      "const h = require('./required');",
      "vi.mock('./mocked');",
      "vi.mock(import('./mocked-typed'));",
      "const i = await vi.importActual('./actual');",
      "import j = require('./import-equals');",
    ].join('\n');
    expect(importsOf('x.test.ts', source).map((r) => `${r.kind} ${r.specifier}`)).toEqual([
      'static ./static',
      'type ./type-only',
      'type ./inline-types',
      'type ./export-type',
      'static ./export-star',
      'static ./side-effect',
      'type ./import-type',
      'dynamic ./dynamic',
      'require ./required',
      'vi.mock ./mocked',
      'dynamic ./mocked-typed',
      'vi.mock ./actual',
      'require ./import-equals',
    ]);
  });

  it('resolves a specifier to .ts, .tsx, .mjs, a .js written for .ts, and a folder index', () => {
    const sources = new Map([
      ['shared/a.ts', "import './b'; import './c.js'; import './d'; import './e'; import './styles.css';"],
      ['shared/b.tsx', ''],
      ['shared/c.ts', ''],
      ['shared/d.mjs', ''],
      ['shared/e/index.ts', ''],
    ]);
    const graph = buildImportGraph(sources);
    expect(graph.edges.map((e) => e.to)).toEqual(['shared/b.tsx', 'shared/c.ts', 'shared/d.mjs', 'shared/e/index.ts', 'shared/styles.css']);
    expect(graph.unresolved).toEqual([]);
    expect(check(new Map([['shared/a.ts', "import './missing';"]]))).toEqual(['shared/a.ts -> ./missing (unresolved import, line 1)']);
  });
});

describe('the layer checker fails on a planted break (in memory)', () => {
  // A small tree that keeps to the table; each case adds one file or one import to it.
  const base = (): Map<string, string> =>
    new Map([
      ['shared/contract/index.ts', 'export const contract = {};'],
      ['main/core/platform/util/time.ts', "import { contract } from '../../../../shared/contract/index';"],
      ['main/core/stores/jsonl-reader.ts', "import '../platform/util/time';"],
      ['main/core/rpc/dispatcher.ts', "import '../stores/jsonl-reader';\nexport type Dispatcher = {};"],
      ['main/core/console-core.ts', "import './rpc/dispatcher';"],
      ['main/core/workspace/demo-port.ts', 'export interface DemoWorkspaces {}'],
      ['main/demo/generate.ts', "import type { DemoWorkspaces } from '../core/workspace/demo-port';"],
      ['testing/stores/fixture.ts', "import '../../main/core/stores/jsonl-reader';"],
      ['main/core/stores/jsonl-reader.test.ts', "import '../../../testing/stores/fixture';\nimport '../../demo/generate';\nimport '../console-core';"],
      ['main/index.ts', `import { app } from '${ELECTRON}';\nimport './core/console-core';`],
    ]);
  const withFile = (file: string, text: string) => new Map([...base(), [file, text]]);

  it('passes the unbroken tree', () => {
    expect(check(base())).toEqual([]);
  });

  it('(a) an upward import: stores/ importing rpc/', () => {
    expect(check(withFile('main/core/stores/x.ts', "import { type Dispatcher } from '../rpc/dispatcher';\nimport '../rpc/dispatcher';"))).toEqual([
      // rpc/ already imports stores/, so the upward arrow also closes a layer cycle.
      'main/core/rpc/dispatcher.ts -> main/core/stores/jsonl-reader.ts (layer cycle: core/rpc -> core/stores -> core/rpc)',
      'main/core/stores/x.ts -> main/core/rpc/dispatcher.ts (layer core/stores may not import core/rpc, line 1)',
      'main/core/stores/x.ts -> main/core/rpc/dispatcher.ts (layer core/stores may not import core/rpc, line 2)',
      'main/core/stores/x.ts -> main/core/rpc/dispatcher.ts (layer cycle: core/rpc -> core/stores -> core/rpc)',
    ]);
  });

  it('(b) a type-only cycle between two files of one folder', () => {
    const sources = base();
    sources.set('main/core/stores/catalog.ts', "import type { Reader } from './locate';\nexport interface Catalog {}");
    sources.set('main/core/stores/locate.ts', "import type { Catalog } from './catalog';\nexport interface Reader {}");
    const cycle = 'file cycle: main/core/stores/catalog.ts -> main/core/stores/locate.ts -> main/core/stores/catalog.ts';
    expect(check(sources)).toEqual([
      `main/core/stores/catalog.ts -> main/core/stores/locate.ts (${cycle})`,
      `main/core/stores/locate.ts -> main/core/stores/catalog.ts (${cycle})`,
    ]);
  });

  it('(b) a type-only upward import that closes a cycle between layers', () => {
    const sources = base();
    sources.set('main/core/platform/util/time.ts', "import type { Dispatcher } from '../../rpc/dispatcher';");
    const violations = check(sources);
    expect(violations).toContain(
      'main/core/platform/util/time.ts -> main/core/rpc/dispatcher.ts (layer core/platform may not import core/rpc, line 1)',
    );
    expect(violations.some((v) => v.includes('(layer cycle: core/platform -> core/rpc -> core/stores -> core/platform)'))).toBe(true);
    expect(violations.some((v) => v.includes('(file cycle: '))).toBe(true);
  });

  it('(c) a product file importing testing/', () => {
    expect(check(withFile('main/core/stores/y.ts', "import '../../../testing/stores/fixture';"))).toEqual([
      // The kit uses stores/, so the import also closes a layer cycle.
      'main/core/stores/y.ts -> testing/stores/fixture.ts (layer cycle: core/stores -> testing -> core/stores)',
      'main/core/stores/y.ts -> testing/stores/fixture.ts (product code imports testing/: only tests, e2e/, bench/ and testing/ may, line 1)',
      'testing/stores/fixture.ts -> main/core/stores/jsonl-reader.ts (layer cycle: core/stores -> testing -> core/stores)',
    ]);
    // The renderer, too (a renderer test may).
    expect(check(withFile('renderer/src/z.ts', "import('../../testing/stores/fixture');"))).toEqual([
      'renderer/src/z.ts -> testing/stores/fixture.ts (product code imports testing/: only tests, e2e/, bench/ and testing/ may, line 1)',
    ]);
    expect(check(withFile('renderer/src/z.test.ts', "import '../../testing/stores/fixture';"))).toEqual([]);
  });

  it('(d) main/core importing main/demo/, also through vi.mock and require', () => {
    expect(check(withFile('main/core/workspace/w.ts', "vi.mock('../../demo/generate');\nconst d = require('../../demo/generate');"))).toEqual([
      'main/core/workspace/w.ts -> main/demo/generate.ts (main/core imports main/demo/: the demo reaches the core only through CoreOptions.demo, line 1)',
      'main/core/workspace/w.ts -> main/demo/generate.ts (main/core imports main/demo/: the demo reaches the core only through CoreOptions.demo, line 2)',
    ]);
  });

  it('(e) electron imported in main/core, statically, by type or dynamically', () => {
    const rule = 'electron only in main/index.ts, main/hosts/electron-ipc.ts, preload/';
    expect(
      check(withFile('main/core/rpc/e.ts', `import type { BrowserWindow } from '${ELECTRON}';\nconst m = await import('${ELECTRON}/main');`)),
    ).toEqual([`main/core/rpc/e.ts -> ${ELECTRON} (${rule}; line 1)`, `main/core/rpc/e.ts -> ${ELECTRON}/main (${rule}; line 2)`]);
  });

  it('(f) one area of the page importing another, even a stylesheet; what they share comes from components/', () => {
    const page = (file: string, text: string) =>
      new Map([
        ...base(),
        ['renderer/src/views/knowledge/rows.ts', 'export interface Row {}'],
        ['renderer/src/views/knowledge/knowledge.css', '.kv-body {}'],
        ['renderer/src/components/writes/EntryActions.tsx', "import '../../../../shared/contract/index';"],
        [file, text],
      ]);
    expect(check(page('renderer/src/views/directives/D.tsx', "import '../knowledge/knowledge.css';\nimport type { Row } from '../knowledge/rows';"))).toEqual([
      'renderer/src/views/directives/D.tsx -> renderer/src/views/knowledge/knowledge.css (layer renderer/views/directives may not import renderer/views/knowledge, line 1)',
      'renderer/src/views/directives/D.tsx -> renderer/src/views/knowledge/rows.ts (layer renderer/views/directives may not import renderer/views/knowledge, line 2)',
    ]);
    expect(check(page('renderer/src/views/directives/D.tsx', "import '../../components/writes/EntryActions';\nimport '../../../../shared/contract';"))).toEqual([]);
    // The shared parts never reach up into an area.
    expect(check(page('renderer/src/components/C.tsx', "import '../views/knowledge/rows';"))).toEqual([
      'renderer/src/components/C.tsx -> renderer/src/views/knowledge/rows.ts (layer renderer may not import renderer/views/knowledge, line 1)',
    ]);
  });

  it('a file in no layer, and an exception nothing uses any more', () => {
    expect(check(withFile('main/stray.ts', ''))).toEqual(['main/stray.ts -> (none) (no layer declares this file)']);
    const stale = checkLayers(buildImportGraph(base()), {
      ...SYNTHETIC_TABLE,
      exceptions: [{ from: 'main/core/stores/jsonl-reader.ts', to: 'main/core/rpc/dispatcher.ts', why: 'fixed long ago' }],
    }).map(formatViolation);
    expect(stale).toEqual([
      'main/core/stores/jsonl-reader.ts -> main/core/rpc/dispatcher.ts (stale exception: no such import any more; remove it from the table)',
    ]);
  });

  it('a declared cycle in the table itself', () => {
    const layers = SYNTHETIC_TABLE.layers.map((l) => (l.name === 'core/platform' ? { ...l, mayImport: [...l.mayImport, 'core/rules'] } : l));
    expect(checkLayers(buildImportGraph(base()), { ...SYNTHETIC_TABLE, layers }).map(formatViolation)).toEqual([
      'core/platform -> core/rules (table: declared layer cycle: core/platform -> core/rules -> core/platform)',
      'core/rules -> core/platform (table: declared layer cycle: core/platform -> core/rules -> core/platform)',
    ]);
  });
});
