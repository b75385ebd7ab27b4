// Checks an import graph against the layer table: undeclared arrows, electron outside its hosts, product code
// using the test kits, and cycles between layers and between files (type-only imports count).
import type { Edge, ImportGraph } from './import-graph';
import type { Layer, LayerTable } from './layer-table';

export interface Violation {
  from: string;
  to: string;
  rule: string;
}

export const formatViolation = (v: Violation): string => `${v.from} -> ${v.to} (${v.rule})`;

export const isTestFile = (file: string): boolean => /\.test\.[cm]?tsx?$/.test(file);
const isElectron = (specifier: string): boolean => specifier === 'electron' || specifier.startsWith('electron/');
const covers = (entry: string, file: string): boolean => (entry.endsWith('/') ? file.startsWith(entry) : file === entry);

/** The layer a file belongs to: the one with the longest path covering it. */
export function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers)
    for (const entry of layer.paths) if (covers(entry, file) && (!best || entry.length > best.length)) best = { layer, length: entry.length };
  return best?.layer;
}

/** Every violation of `table` in `graph`, sorted; empty when the tree keeps to the table. */
export function checkLayers(graph: ImportGraph, table: LayerTable): Violation[] {
  const violations: Violation[] = [...checkTable(table)];
  const layerName = new Map<string, string | undefined>();
  const nameOf = (file: string) => {
    if (!layerName.has(file)) layerName.set(file, layerOf(file, table.layers)?.name);
    return layerName.get(file);
  };
  const layerByName = new Map(table.layers.map((l) => [l.name, l]));
  const usedExceptions = new Set<number>();

  for (const file of graph.files) if (!nameOf(file)) violations.push({ from: file, to: '(none)', rule: 'no layer declares this file' });
  for (const edge of graph.unresolved) violations.push({ from: edge.from, to: edge.to, rule: `unresolved import, line ${edge.line}` });

  // An exception is an exact file -> file edge; it is used when the edge exists, and then left out of the
  // rules and of the cycle search (a type-only cycle is excepted by excepting one of its edges).
  const exceptionOf = (edge: Edge) => table.exceptions.findIndex((e) => e.from === edge.from && e.to === edge.to);
  const excepted = new Set<Edge>();
  for (const edge of graph.edges) {
    const exception = edge.external ? -1 : exceptionOf(edge);
    if (exception >= 0) {
      usedExceptions.add(exception);
      excepted.add(edge);
    }
  }

  for (const edge of graph.edges) {
    if (excepted.has(edge)) continue;
    if (edge.external) {
      if (isElectron(edge.to) && !table.electronAllowed.some((entry) => covers(entry, edge.from)))
        violations.push({ from: edge.from, to: edge.to, rule: `electron only in ${table.electronAllowed.join(', ')}; line ${edge.line}` });
      continue;
    }
    const from = nameOf(edge.from);
    const to = nameOf(edge.to);
    if (!from) continue; // reported above
    if (!to) {
      violations.push({ from: edge.from, to: edge.to, rule: `target in no layer, line ${edge.line}` });
      continue;
    }
    if (from === to) continue;
    const allowed = new Set(layerByName.get(from)?.mayImport ?? []);
    if (isTestFile(edge.from)) for (const extra of [...(table.testFilesMayAlsoImport['*'] ?? []), ...(table.testFilesMayAlsoImport[from] ?? [])]) allowed.add(extra);
    if (allowed.has(to)) continue;
    violations.push({ from: edge.from, to: edge.to, rule: `${ruleFor(edge.from, from, to)}, line ${edge.line}` });
  }

  table.exceptions.forEach((e, index) => {
    if (!usedExceptions.has(index)) violations.push({ from: e.from, to: e.to, rule: 'stale exception: no such import any more; remove it from the table' });
  });

  const internal = graph.edges.filter((e) => !e.external && !excepted.has(e));
  // Tests are leaves: group them apart from their layer's product files, so a test driving the whole core
  // (allowed) is not mistaken for the layer itself reaching up.
  const layerNode = (file: string) => `${nameOf(file) ?? '(none)'}${isTestFile(file) ? ' [tests]' : ''}`;
  violations.push(...cycles(internal, layerNode, 'layer cycle'));
  violations.push(...cycles(internal, (file) => file, 'file cycle'));

  const byText = (a: Violation, b: Violation) => (formatViolation(a) < formatViolation(b) ? -1 : formatViolation(a) > formatViolation(b) ? 1 : 0);
  return dedupe(violations).sort(byText);
}

function ruleFor(file: string, from: string, to: string): string {
  if (to === 'testing') return 'product code imports testing/: only tests, e2e/, bench/ and testing/ may';
  if (to === 'main/demo' && file.startsWith('main/core/')) return 'main/core imports main/demo/: the demo reaches the core only through CoreOptions.demo';
  return `layer ${from} may not import ${to}`;
}

/** The table itself: known layer names, no file in two layers, and a declared order without cycles. */
function checkTable(table: LayerTable): Violation[] {
  const names = new Set(table.layers.map((l) => l.name));
  const found: Violation[] = [];
  const seenPaths = new Map<string, string>();
  for (const layer of table.layers) {
    for (const target of layer.mayImport) if (!names.has(target)) found.push({ from: layer.name, to: target, rule: 'table: unknown layer' });
    for (const entry of layer.paths) {
      const owner = seenPaths.get(entry);
      if (owner) found.push({ from: layer.name, to: entry, rule: `table: path already in layer ${owner}` });
      seenPaths.set(entry, layer.name);
    }
  }
  for (const [from, extras] of Object.entries(table.testFilesMayAlsoImport))
    for (const target of extras) if (!names.has(target) || (from !== '*' && !names.has(from))) found.push({ from, to: target, rule: 'table: unknown layer' });
  const declared: Edge[] = table.layers.flatMap((l) =>
    l.mayImport.map((to) => ({ from: l.name, to, kind: 'static' as const, line: 0, external: false })),
  );
  found.push(...cycles(declared, (name) => name, 'table: declared layer cycle'));
  return found;
}

/**
 * One violation per edge of one shortest cycle in each strongly connected group of `nodeOf(file)` nodes.
 * Fixing that cycle reveals the next one, if any.
 */
function cycles(edges: readonly Edge[], nodeOf: (file: string) => string, rule: string): Violation[] {
  const next = new Map<string, Map<string, Edge>>();
  for (const edge of edges) {
    const a = nodeOf(edge.from);
    const b = nodeOf(edge.to);
    if (a === b) continue;
    let out = next.get(a);
    if (!out) next.set(a, (out = new Map()));
    if (!out.has(b)) out.set(b, edge);
  }
  const found: Violation[] = [];
  for (const group of stronglyConnected(next)) {
    if (group.length < 2) continue;
    const members = new Set(group);
    const loop = shortestLoop(group.sort()[0] as string, next, members);
    const names = [...loop, loop[0]].join(' -> ');
    for (let i = 0; i < loop.length; i++) {
      const edge = next.get(loop[i] as string)?.get(loop[(i + 1) % loop.length] as string) as Edge;
      found.push({ from: edge.from, to: edge.to, rule: `${rule}: ${names}` });
    }
  }
  return found;
}

function shortestLoop(start: string, next: Map<string, Map<string, Edge>>, members: Set<string>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const target of next.get(node)?.keys() ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(parent.get(loop[0] as string) as string);
        return loop;
      }
      if (!parent.has(target)) {
        parent.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start]; // unreachable for a group of two or more
}

/** Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack. */
function stronglyConnected(next: Map<string, Map<string, Edge>>): string[][] {
  const nodes = new Set<string>([...next.keys(), ...[...next.values()].flatMap((m) => [...m.keys()])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; targets: string[]; at: number }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(next.get(node)?.keys() ?? [])], at: 0 });
    };
    enter(root);
    while (work.length) {
      const frame = work[work.length - 1] as (typeof work)[number];
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++] as string;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = formatViolation(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
