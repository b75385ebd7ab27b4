import fs from 'node:fs';
import path from 'node:path';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import { LINK_REDIRECTED_FILES } from '../platform/paths/link';
import { isTempName } from '../platform/paths/temp-name';
import { STORES, orphanKey, patternRegex, type StoreDef, type StoreTier } from './catalog';
import { IMPORTED_SUFFIX, archivePathOf, importable } from './imported';
import type { StoreLocation } from './store-location';

/** Where one catalogued store lives for a given workspace. */
/** One file found on disk for a store. */
export interface StoreFile {
  storeKey: string;
  tier: StoreTier;
  path: string;
  /** Relative to the store's root, e.g. `.swarm/knowledge.jsonl`, `shared-learnings.jsonl`, `links/team/knowledge.jsonl`. */
  name: string;
  /** Set when the plugin ignores this file (a local knowledge-family file while linked). */
  orphaned: boolean;
  /** Set when the path is a symlink: where it points. */
  symlinkTarget: string | null;
}

export function locateStores(paths: WorkspacePaths): StoreLocation[] {
  const linked = paths.link.dir !== null && paths.link.linkId !== null;
  return STORES.map((def) => {
    switch (def.root) {
      case 'hive':
        return { def, tier: 'hive', rootDir: paths.hiveDir, displayPrefix: '', matcher: patternRegex(def.pattern) };
      case 'knowledge':
        return linked
          ? { def, tier: 'link', rootDir: paths.link.dir as string, displayPrefix: `links/${paths.link.linkId}/`, matcher: patternRegex(def.pattern) }
          : { def, tier: 'swarm', rootDir: paths.swarmDir, displayPrefix: '.swarm/', matcher: patternRegex(def.pattern) };
      default:
        return { def, tier: def.key === 'link-pointer' ? 'link' : 'swarm', rootDir: paths.projectDir, displayPrefix: '', matcher: patternRegex(def.pattern) };
    }
  });
}

function symlinkTarget(file: string): string | null {
  try {
    return fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : null;
  } catch {
    return null;
  }
}

function fileOf(location: StoreLocation, relative: string): StoreFile {
  const abs = path.join(location.rootDir, ...relative.split('/'));
  return {
    storeKey: location.def.key,
    tier: location.tier,
    path: abs,
    name: location.displayPrefix + relative,
    orphaned: false,
    symlinkTarget: symlinkTarget(abs),
  };
}

/**
 * The files of one store that exist now. A fixed path that exists as something other than a
 * file (e.g. a directory) is still returned, so the reader can report it.
 */
export function discoverFiles(location: StoreLocation): StoreFile[] {
  const segments = location.def.pattern.split('/');
  const found: string[] = [];
  const walk = (dir: string, index: number, prefix: string) => {
    const segment = segments[index] as string;
    const last = index === segments.length - 1;
    if (!segment.includes('*')) {
      const next = path.join(dir, segment);
      if (last) {
        if (fs.existsSync(next) || symlinkTarget(next) !== null) found.push(prefix + segment);
      } else walk(next, index + 1, `${prefix}${segment}/`);
      return;
    }
    const re = patternRegex(segment);
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (isTempName(name) || !re.test(name)) continue;
      if (last) found.push(prefix + name);
      else walk(path.join(dir, name), index + 1, `${prefix}${name}/`);
    }
  };
  walk(location.rootDir, 0, '');
  // A store the plugin imported into swarm.db: its renamed JSONL is read as the store it was.
  if (found.length === 0 && importable(location) && fs.existsSync(archivePathOf(location))) found.push(location.def.pattern + IMPORTED_SUFFIX);
  return found.map((relative) => fileOf(location, relative));
}

/** The archive of an imported store, while no live file has reappeared beside it (then the live file is the store). */
function archiveOf(location: StoreLocation, relative: string): boolean {
  if (!importable(location) || relative !== location.def.pattern + IMPORTED_SUFFIX) return false;
  const live = path.join(location.rootDir, ...location.def.pattern.split('/'));
  return !fs.existsSync(live) && symlinkTarget(live) === null;
}

/** Which store a changed absolute path belongs to (for the watcher); null when none or a temp file. */
export function matchPath(locations: StoreLocation[], absPath: string): StoreFile | null {
  if (isTempName(path.basename(absPath))) return null;
  for (const location of locations) {
    const relative = path.relative(location.rootDir, absPath);
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    const posix = relative.split(path.sep).join('/');
    if (location.matcher.test(posix) || archiveOf(location, posix)) return fileOf(location, posix);
  }
  return null;
}

/** Local knowledge-family files the plugin ignores while the worktree is linked. */
export function orphanedFiles(paths: WorkspacePaths): StoreFile[] {
  if (!paths.link.dir) return [];
  const present = LINK_REDIRECTED_FILES.filter((name) => fs.existsSync(path.join(paths.swarmDir, name)) || symlinkTarget(path.join(paths.swarmDir, name)) !== null);
  return present.map((name) => {
    const abs = path.join(paths.swarmDir, name);
    return { storeKey: orphanKey(name), tier: 'swarm', path: abs, name: `.swarm/${name}`, orphaned: true, symlinkTarget: symlinkTarget(abs) };
  });
}
