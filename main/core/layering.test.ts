import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const coreDir = path.dirname(new URL(import.meta.url).pathname);
const repoRoot = path.resolve(coreDir, '..', '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => (m[1] ?? m[2] ?? m[3]) as string,
  );

describe('layering: imports point downward only', () => {
  it('no file under main/core imports electron', () => {
    const offenders = sourceFiles(coreDir).filter((file) => importsOf(file).some((spec) => spec === 'electron' || spec.startsWith('electron/')));
    expect(offenders.map((f) => path.relative(repoRoot, f))).toEqual([]);
  });

  it('main/core never imports the hosts, the CLI or the renderer', () => {
    // Tests beside the code may use the kits in testing/ and the demo generator; product files may not.
    const productFiles = sourceFiles(coreDir).filter((file) => !file.endsWith('.test.ts'));
    const offenders = productFiles.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => path.resolve(path.dirname(file), spec))
        .filter((target) => !target.startsWith(coreDir + path.sep) && !target.startsWith(path.join(repoRoot, 'shared') + path.sep))
        .map((target) => `${path.relative(repoRoot, file)} -> ${path.relative(repoRoot, target)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the renderer reaches the main process only through shared/ (the contract)', () => {
    const rendererDir = path.join(repoRoot, 'renderer');
    const offenders = sourceFiles(rendererDir).flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => path.resolve(path.dirname(file), spec))
        .filter((target) => !target.startsWith(rendererDir + path.sep) && !target.startsWith(path.join(repoRoot, 'shared') + path.sep))
        .map((target) => `${path.relative(repoRoot, file)} -> ${path.relative(repoRoot, target)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the detector itself notices an electron import', () => {
    const probe = path.join(coreDir, '.layering-probe.tmp.ts');
    const forbidden = ['elec', 'tron'].join('');
    fs.writeFileSync(probe, `import { app } from '${forbidden}';\n`);
    try {
      expect(importsOf(probe)).toContain(forbidden);
    } finally {
      fs.rmSync(probe);
    }
  });
});
