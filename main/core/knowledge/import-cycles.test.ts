import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The knowledge model's parts import its vocabulary from model-types.ts, never the model that
// imports them: no import cycle under knowledge/, type-only imports included.

const knowledgeDir = path.dirname(new URL(import.meta.url).pathname);

function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const targets = [...text.matchAll(/(?:import|export)[^'"]*from\s*['"]\.\/([^'"/]+)['"]/g)].map((m) => `${m[1]}.ts`).filter((t) => fs.existsSync(path.join(dir, t)));
    graph.set(name, targets);
  }
  return graph;
}

export function cyclesIn(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      found.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}

describe('knowledge/ imports', () => {
  it('have no cycle', () => {
    expect(cyclesIn(importGraph(knowledgeDir))).toEqual([]);
  });

  it('the detector finds a type-only cycle', () => {
    const graph = new Map([
      ['knowledge-model.ts', ['counter-state.ts']],
      ['counter-state.ts', ['knowledge-model.ts']],
    ]);
    expect(cyclesIn(graph)).toEqual(['knowledge-model.ts -> counter-state.ts -> knowledge-model.ts']);
  });
});
