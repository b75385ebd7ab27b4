// THE LAYER TABLE: which folder of the repo may import which. Declared once here, checked over every source file
// of main/, preload/, renderer/, shared/, testing/, e2e/ and bench/ by main/layers.test.ts (part of `npm test`).
// Modelled on VS Code's code-layering / code-import-patterns rules.
//
// Imports point down only (a layer may skip levels, never go up; the exact arrows are in LAYERS):
//
//   renderer/src/App.tsx, main.tsx ──► renderer/src/views/<area>/ ──► renderer/ (components, state, api) ──► shared/
//   (no area imports another: what two areas share is in components/ or state/)      preload/ ──► shared/ (+ electron)
//   main/index.ts, main/cli/       ──► main/hosts/ ──► main/core/console-core.ts
//   main/core:  console-core.ts
//               rpc/
//               workspace/   ·   areas: knowledge receipts skills curator bridge hive swarm history
//               human/  (tokens, audit, confirmation, runner; write/ = the write protocol)
//               rules/   ·   store-index/
//               stores/
//               platform/
//   shared/
//   main/demo/ ──► core rules/, stores/, platform/, workspace/demo-port.ts, shared/
//   main/demo/week/ ──► main/demo/, core history/, store-index/, workspace/, stores/, platform/, shared/
//   testing/   ──► anything but e2e/ and bench/; imported only by tests, e2e/, bench/ and testing/

// A file belongs to the layer whose path is the longest prefix of it. A layer may import its own files and the
// layers it lists; a test file (`*.test.ts`) may also import what testFilesMayAlsoImport grants. Every arrow not
// declared here fails, and so does any cycle, between layers or between files, type-only imports included.

export interface Layer {
  name: string;
  /** Folders (ending in '/') or single files, repo-relative. */
  paths: readonly string[];
  /** Layer names this layer's files may import, besides their own layer. */
  mayImport: readonly string[];
  why: string;
}

export interface LayerException {
  from: string;
  to: string;
  why: string;
}

export interface LayerTable {
  layers: readonly Layer[];
  /** Extra layers a test file in a layer (the key; '*' for every layer) may import. */
  testFilesMayAlsoImport: Readonly<Record<string, readonly string[]>>;
  /** The only files that may import the `electron` package. */
  electronAllowed: readonly string[];
  /** Known upward imports the lead has yet to fix: each is an exact file -> file edge; an unused one fails. */
  exceptions: readonly LayerException[];
}

const PLATFORM = 'core/platform';
const SHARED = 'shared';
/** The areas: one folder per domain of the console, side by side under rpc/. */
const AREAS = ['core/knowledge', 'core/receipts', 'core/skills', 'core/curator', 'core/bridge', 'core/hive', 'core/swarm', 'core/history'];
/** What an area stands on. */
const AREA_BASE = ['core/human', 'core/rules', 'core/store-index', 'core/stores', PLATFORM, SHARED];
/** The page's areas: one folder per view under renderer/src/views/, none importing another. */
const VIEW_AREAS = ['directives', 'history', 'hive', 'knowledge', 'live', 'receipts', 'skills'].map((v) => `renderer/views/${v}`);
const CORE_LAYERS = ['core/console-core', 'core/rpc', 'core/workspace', 'core/demo-port', ...AREAS, ...AREA_BASE.filter((l) => l !== SHARED)];

const area = (name: string, why: string, alsoAreas: readonly string[] = []): Layer => ({
  name: `core/${name}`,
  paths: [`main/core/${name}/`],
  mayImport: [...alsoAreas, ...AREA_BASE],
  why,
});

export const LAYERS: readonly Layer[] = [
  // ── the renderer process and its bridge ──
  {
    name: 'renderer/app',
    paths: ['renderer/src/App.tsx', 'renderer/src/main.tsx'],
    mayImport: ['renderer', ...VIEW_AREAS, SHARED],
    why: 'the page: mounts the app and routes to one view per area',
  },
  ...VIEW_AREAS.map(
    (name): Layer => ({
      name,
      paths: [`renderer/src/${name.slice('renderer/'.length)}/`],
      mayImport: ['renderer', SHARED],
      why: 'one area of the page; what two areas share lives in components/ or state/, never in another area',
    }),
  ),
  { name: 'renderer', paths: ['renderer/'], mayImport: [SHARED], why: 'components, state and the api port every view stands on; they reach the main process only through the contract' },
  { name: 'preload', paths: ['preload/'], mayImport: [SHARED], why: 'contextBridge: one function per contract operation (and electron)' },
  { name: SHARED, paths: ['shared/'], mayImport: [], why: 'the zod contract; imports nothing of ours' },

  // ── the main process's hosts ──
  {
    name: 'main/index',
    paths: ['main/index.ts'],
    mayImport: ['main/hosts', 'core/console-core', 'main/demo-week', SHARED],
    why: 'Electron bootstrap: builds a core, hands it the demo and serves it over IPC',
  },
  {
    name: 'main/cli',
    paths: ['main/cli.ts', 'main/cli/'],
    mayImport: ['main/hosts', ...CORE_LAYERS, 'main/demo', 'main/demo-week', SHARED],
    why: 'swarm-console commands: start a host, or read stores directly for inspect/verify/denials/audit',
  },
  {
    name: 'main/hosts',
    paths: ['main/hosts/'],
    mayImport: ['core/rpc', 'core/console-core', 'core/human', PLATFORM, SHARED],
    why: 'IPC and loopback HTTP hosts of the dispatcher; human/ gives the confirmation ports they implement; platform/util escapes terminal text',
  },

  // ── the headless core ──
  { name: 'core/console-core', paths: ['main/core/console-core.ts'], mayImport: ['core/rpc', 'core/workspace', 'core/human', SHARED], why: 'assembles the core' },
  {
    name: 'core/rpc',
    paths: ['main/core/rpc/'],
    // context.ts types CoreOptions.demo with the port.
    mayImport: ['core/workspace', 'core/demo-port', ...AREAS, ...AREA_BASE],
    why: 'dispatcher and one handler file per area',
  },
  { name: 'core/workspace', paths: ['main/core/workspace/'], mayImport: ['core/demo-port', 'core/store-index', 'core/stores', PLATFORM, SHARED], why: 'the open project + hive' },
  {
    name: 'core/demo-port',
    paths: ['main/core/workspace/demo-port.ts'],
    mayImport: [SHARED],
    why: 'the one file of the core main/demo/ implements: the core never imports the generator',
  },
  area('knowledge', 'the knowledge model'),
  area('receipts', 'receipt journals and chain verification'),
  area('skills', 'skill drafts, apply/reject/retire'),
  // The curator's review queue reads the skill pipeline's logs (skills/skill-logs.ts) to list drafts and decisions.
  area('curator', 'curator recommendations and the review queue', ['core/skills']),
  area('bridge', 'the OpenCode server bridge and gate events'),
  area('hive', 'hive quarantine and rollback'),
  // A project's quarantine/restore/promote writes into the hive with the hive's own paths, quarantine and revert check.
  area('swarm', "a project's quarantine, restore and promote-to-hive", ['core/hive']),
  // History reads the audit log (human/) for the console's own quarantines and the index rows each ingest wrote;
  // its restore of a forgotten entry writes the project's (swarm/) or the hive's (hive/) store with their paths and backups.
  area('history', 'knowledge history: the recorder, its database, its queries and the restore of a forgotten entry', ['core/swarm', 'core/hive']),
  { name: 'core/human', paths: ['main/core/human/'], mayImport: ['core/rules', 'core/stores', PLATFORM, SHARED], why: 'tokens, audit, confirmation, runner; write/ is THE write protocol' },
  { name: 'core/rules', paths: ['main/core/rules/'], mayImport: ['core/stores', PLATFORM, SHARED], why: "the plugin's rules (counters, lifecycle, thresholds…)" },
  { name: 'core/store-index', paths: ['main/core/store-index/'], mayImport: ['core/stores', PLATFORM, SHARED], why: 'the SQLite index of the stores' },
  { name: 'core/stores', paths: ['main/core/stores/'], mayImport: [PLATFORM, SHARED], why: 'the JSONL reader and store schemas' },
  { name: PLATFORM, paths: ['main/core/platform/'], mayImport: [SHARED], why: 'paths, config, watch, util' },

  // ── beside the product ──
  {
    name: 'main/demo',
    paths: ['main/demo/'],
    mayImport: ['core/rules', 'core/stores', PLATFORM, 'core/demo-port', SHARED],
    why: 'the seeded demo generator and its scripted week (pure file contents)',
  },
  {
    name: 'main/demo-week',
    paths: ['main/demo/week/'],
    mayImport: ['main/demo', 'core/history', 'core/store-index', 'core/workspace', 'core/demo-port', 'core/stores', PLATFORM, SHARED],
    why: "the demo as the hosts open it (the DemoWorkspaces port): it replays the scripted week through the real index and history recorder, and keeps the demo's plugin at work",
  },
  {
    name: 'testing',
    paths: ['testing/'],
    mayImport: ['renderer', 'preload', SHARED, 'main/index', 'main/cli', 'main/hosts', ...CORE_LAYERS, 'main/demo', 'main/demo-week'],
    why: 'test kits: may use anything but e2e/ and bench/; only tests, e2e/ and bench/ may use them',
  },
  {
    name: 'e2e',
    // e2e asserts the UI's own wording (renderer/src/components/ack-terms.ts), the demo's ids, and finds the
    // Electron binary as the CLI does (main/cli/electron-binary.ts).
    paths: ['e2e/'],
    mayImport: ['testing', 'renderer', 'main/cli', 'main/demo', 'main/demo-week', SHARED],
    why: 'Playwright suites and the Electron bundle checks',
  },
  {
    name: 'main/repo-checks',
    paths: ['main/layers.test.ts', 'main/plugin-formats-citations.test.ts'],
    mayImport: ['testing'],
    why: "whole-repo checks run by vitest with main/: this table, and the code's citations of docs/plugin-formats.md",
  },
  {
    name: 'bench',
    paths: ['bench/'],
    mayImport: ['testing', ...CORE_LAYERS, 'main/demo', 'main/demo-week', SHARED],
    why: 'benchmarks over demo data through the core',
  },
];

export const LAYER_TABLE: LayerTable = {
  layers: LAYERS,
  testFilesMayAlsoImport: {
    // Any test may use the kits in testing/.
    '*': ['testing'],
    // Tests under main/ may generate the demo, and may drive the whole core as a user would (console-core is the
    // top of the core). A test is a leaf nothing imports, so this cannot close a cycle.
    ...Object.fromEntries(
      LAYERS.filter((l) => l.paths.every((p) => p.startsWith('main/'))).map((l) => [l.name, ['main/demo', 'main/demo-week', 'core/console-core']]),
    ),
  },
  electronAllowed: ['main/index.ts', 'main/hosts/electron-ipc.ts', 'preload/'],
  exceptions: [],
};
