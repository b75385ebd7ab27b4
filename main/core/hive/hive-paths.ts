import fs from 'node:fs';
import path from 'node:path';

/** The hive files a quarantine touches, all under `<dataDir>` and so all under `<dataDir>.lock`. */
export interface HivePaths {
  dataDir: string;
  store: string;
  sidecar: string;
  events: string;
  backups: string;
}

export function hivePaths(dataDir: string): HivePaths {
  // The token binds the resolved path, so a symlinked data dir names one store, not two.
  const resolved = fs.existsSync(dataDir) ? fs.realpathSync(dataDir) : path.resolve(dataDir);
  return {
    dataDir: resolved,
    store: path.join(resolved, 'shared-learnings.jsonl'),
    sidecar: path.join(resolved, 'shared-learnings-quarantined.jsonl'),
    events: path.join(resolved, 'shared-knowledge-events.jsonl'),
    backups: path.join(resolved, 'quarantine-backups'),
  };
}

export const HIVE_QUARANTINE_OP = 'hive.quarantine.commit';
export const HIVE_ROLLBACK_OP = 'hive.rollback.commit';

/** Control characters out, at most 500 characters: the plugin's rule for quarantine reasons. */
export const cleanReason = (reason: string): string =>
  reason
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, 500);
