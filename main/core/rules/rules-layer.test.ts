import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// rules/ is the plugin's rules, below every area: it may use platform/, the store schemas and
// shared/, and nothing that uses it (knowledge, receipts, skills…), so an area never has to
// import another area to learn what the plugin does.

const rulesDir = path.dirname(new URL(import.meta.url).pathname);
const coreDir = path.dirname(rulesDir);
const repoRoot = path.resolve(coreDir, '..', '..');
const ALLOWED = [rulesDir, path.join(coreDir, 'platform'), path.join(coreDir, 'stores', 'schemas'), path.join(repoRoot, 'shared')];

const relativeImports = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*from\s*['"](\.[^'"]*)['"]|import\(\s*['"](\.[^'"]*)['"]\s*\)/g)].map((m) => path.resolve(path.dirname(file), (m[1] ?? m[2]) as string));

export function offendersIn(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .flatMap((name) => {
      const file = path.join(dir, name);
      return relativeImports(file)
        .filter((target) => !ALLOWED.some((root) => target === root || target.startsWith(root + path.sep)))
        .map((target) => `${path.relative(repoRoot, file)} -> ${path.relative(repoRoot, target)}`);
    });
}

describe('rules/ layer', () => {
  it('imports only rules/, platform/, stores/schemas/ and shared/', () => {
    expect(offendersIn(rulesDir)).toEqual([]);
  });

  it('the check notices an import of an area', () => {
    const probe = path.join(rulesDir, '.rules-layer-probe.tmp.ts');
    fs.writeFileSync(probe, "import type { KnowledgeModel } from '../knowledge/knowledge-model';\n");
    try {
      expect(offendersIn(rulesDir).join('\n')).toContain('main/core/knowledge/knowledge-model');
    } finally {
      fs.rmSync(probe);
    }
  });
});
