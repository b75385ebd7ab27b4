import fs from 'node:fs';
import path from 'node:path';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import { isTempName } from '../platform/paths/temp-name';
import type { StoreLocation } from './store-location';
import { ConsoleError } from '../../../shared/contract';

/**
 * Stores the plugin has moved into SQLite. From opencode-swarm 7.162 a store family is imported
 * into `.swarm/swarm.db` in one transaction and its JSONL file renamed `<file>.imported` — a cold
 * archive the plugin no longer reads or writes. The console reads that archive as the store it
 * was (read-only, labelled with the date of the rename) and says so wherever the store is shown,
 * so an upgraded project never looks silently empty.
 */
export const IMPORTED_SUFFIX = '.imported';

export interface ImportedArchive {
  /** The store whose file was archived, or null for a `*.imported` file the console does not know. */
  storeKey: string | null;
  label: string;
  /** Absolute path of the archive, and its name as shown (`.swarm/knowledge.jsonl.imported`). */
  path: string;
  name: string;
  /** When the plugin renamed the file (the archive's mtime; a rename keeps it, so this is when it was last written). */
  archivedAt: string;
  /** A live file exists again beside the archive (e.g. written by an older plugin on another machine). */
  liveFileExists: boolean;
  notice: string;
}

/** Fixed-name JSONL stores can be archived; multi-file patterns (`*.md`) are not migrated. */
export const importable = (location: StoreLocation) => location.def.format === 'jsonl' && !location.def.pattern.includes('*');

export const archivePathOf = (location: StoreLocation) => path.join(location.rootDir, ...location.def.pattern.split('/')) + IMPORTED_SUFFIX;

function mtimeOf(file: string): Date | null {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? stat.mtime : null;
  } catch {
    return null;
  }
}

const exists = (file: string) => {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

export function archiveNotice(label: string, tier: string, archivedAt: string): string {
  const where = tier === 'hive' ? "the plugin's database" : 'swarm.db';
  const owner = tier === 'hive' ? 'the plugin' : "this project's plugin";
  return `${owner} keeps ${label} in ${where} since ${archivedAt}; the console shows the archived JSONL as of then (archived by the plugin on ${archivedAt.slice(0, 10)}, read-only)`;
}

/** Every archive beside the stores of this workspace: the known ones first, then any other `*.imported`. */
export function findImportedArchives(paths: WorkspacePaths, locations: readonly StoreLocation[]): ImportedArchive[] {
  const out: ImportedArchive[] = [];
  const seen = new Set<string>();
  for (const location of locations.filter(importable)) {
    const archive = archivePathOf(location);
    const mtime = mtimeOf(archive);
    if (!mtime || seen.has(archive)) continue;
    seen.add(archive);
    const archivedAt = mtime.toISOString();
    out.push({
      storeKey: location.def.key,
      label: location.def.label,
      path: archive,
      name: location.displayPrefix + location.def.pattern + IMPORTED_SUFFIX,
      archivedAt,
      liveFileExists: exists(archive.slice(0, -IMPORTED_SUFFIX.length)),
      notice: archiveNotice(location.def.label, location.tier, archivedAt),
    });
  }
  const dirs = new Map<string, string>([
    [paths.swarmDir, '.swarm/'],
    [paths.hiveDir, ''],
  ]);
  if (paths.link.dir && paths.link.linkId) dirs.set(paths.link.dir, `links/${paths.link.linkId}/`);
  for (const [dir, prefix] of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith(IMPORTED_SUFFIX) && !isTempName(n)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const mtime = mtimeOf(file);
      if (seen.has(file) || !mtime) continue;
      seen.add(file);
      const archivedAt = mtime.toISOString();
      out.push({
        storeKey: null,
        label: name,
        path: file,
        name: prefix + name,
        archivedAt,
        liveFileExists: exists(file.slice(0, -IMPORTED_SUFFIX.length)),
        notice: `${prefix}${name}: a store the plugin archived on ${archivedAt.slice(0, 10)} after importing it into its database; the console does not read this store`,
      });
    }
  }
  return out;
}

/**
 * Why a human-only write must not touch `storeFile`: the plugin imported it into swarm.db, so
 * rewriting the archived JSONL (or a JSONL written beside it) would change nothing the plugin
 * reads. Null when the store is still the plugin's JSONL.
 */
export function importedStoreRefusal(paths: WorkspacePaths, storeFile: string): string | null {
  const archive = storeFile.endsWith(IMPORTED_SUFFIX) ? storeFile : storeFile + IMPORTED_SUFFIX;
  const mtime = mtimeOf(archive);
  if (!mtime) return null;
  const inProject = !path.relative(paths.projectDir, archive).startsWith('..');
  const name = inProject ? path.relative(paths.projectDir, archive) : archive;
  const database = inProject ? "the plugin's swarm.db" : "the plugin's database";
  return (
    `${path.basename(storeFile.replace(/\.imported$/, ''))} has been imported into ${database} (archived as ${name} on ${mtime.toISOString()}): ` +
    'the plugin no longer reads the JSONL, so writing it would change nothing it uses. The console never writes the plugin\'s database; make this change with the plugin itself.'
  );
}

/** Throws the refusal of a human-only write to any of these store files that the plugin imported into swarm.db. */
export function refuseImportedStores(paths: WorkspacePaths, ...storeFiles: string[]): void {
  for (const file of storeFiles) {
    const refusal = importedStoreRefusal(paths, file);
    if (refusal) throw new ConsoleError('forbidden', refusal);
  }
}
