// Reads the source files the layer table governs from a checkout (or from a temp copy in the self-check).
import fs from 'node:fs';
import path from 'node:path';
import { isSourceFile } from './import-graph';

/** The top-level folders whose every source file is checked. */
export const CHECKED_ROOTS = ['main', 'preload', 'renderer', 'shared', 'testing', 'e2e', 'bench'] as const;

// Build output, dependencies and generated data are not ours to layer.
const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', '.bench', 'test-results', 'playwright-report']);

/** Repo-relative path ('/'-separated) → text, for every source file under `roots`. */
export function readRepoSources(repoRoot: string, roots: readonly string[] = CHECKED_ROOTS): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (relativeDir: string): void => {
    const dir = path.join(repoRoot, relativeDir);
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const relative = path.posix.join(relativeDir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(relative);
      } else if (entry.isFile() && isSourceFile(entry.name)) {
        sources.set(relative, fs.readFileSync(path.join(dir, entry.name), 'utf8'));
      }
    }
  };
  for (const root of roots) walk(root);
  return sources;
}
