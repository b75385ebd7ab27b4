import fs from 'node:fs';
import type { PluginUpgrade } from '../../../shared/contract/stores';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import { findImportedArchives } from './imported';
import type { StoreLocation } from './store-location';
import { probeSwarmDb, type SwarmDbProbe } from './swarm-db';

/**
 * What a newer plugin (7.162+, stores moving into `.swarm/swarm.db`) changed in this workspace,
 * and the lines to say about it wherever stores are shown: the status bar, the Stores summary
 * and `inspect`. A swarm.db alone is not news (older plugins keep QA-gate profiles there); an
 * archived store, a table named like a store, or a database that cannot be read is.
 */
export function describePluginUpgrade(paths: WorkspacePaths, locations: readonly StoreLocation[]): PluginUpgrade {
  const swarmDb = cachedProbe(paths.swarmDir);
  const archives = findImportedArchives(paths, locations);
  const notices = archives.map((a) => a.notice);
  if (swarmDb) {
    const archived = new Set(archives.map((a) => a.storeKey));
    for (const table of swarmDb.storeTables) {
      if (!archived.has(table.storeKey)) notices.push(`swarm.db has a table "${table.name}" (${table.rows ?? '?'} rows) named like a store the console reads; not read yet`);
    }
    if (swarmDb.problem) notices.push(swarmDb.problem);
  }
  return { swarmDb, archives, notices };
}

/** Probes again only when swarm.db or its WAL changed, so a status refresh costs a stat. */
const probes = new Map<string, { key: string; probe: SwarmDbProbe | null }>();

function identity(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
}

function cachedProbe(swarmDir: string): SwarmDbProbe | null {
  const db = `${swarmDir}/swarm.db`;
  const key = `${identity(db)}|${identity(`${db}-wal`)}`;
  const cached = probes.get(swarmDir);
  // A busy database is asked again next time: the lock is usually gone by then.
  if (cached && cached.key === key && cached.probe?.state !== 'busy') return cached.probe;
  const probe = probeSwarmDb(swarmDir);
  probes.set(swarmDir, { key, probe });
  return probe;
}
