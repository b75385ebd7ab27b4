import path from 'node:path';
import type { CallerContext } from '../confirmation';
import type { HumanServices } from '../runner';
import { readJsonFile, writeResult } from '../write/backup';
import { readStoreSnapshot } from '../write/store-snapshot';
import { HIVE_QUARANTINE_OP, type HivePaths } from './hive-paths';

/**
 * Rule 5.6.8: the plugin rewrites the hive from an unlocked read, so a promotion that read the
 * store before our commit can put the quarantined lines back. A few seconds after the commit the
 * console re-reads the store; if an id is back it records a warning in result.json and the audit
 * log (the status list and the Hive view show it). Returns when the check will run.
 */
export function scheduleRevertCheck(services: HumanServices, caller: CallerContext, hive: HivePaths, backupDir: string, ids: readonly string[], token12: string): string {
  const at = Date.now() + services.revertCheckMs;
  const timer = setTimeout(() => void checkForRevert(services, caller, hive, backupDir, ids, token12), services.revertCheckMs);
  timer.unref();
  return new Date(at).toISOString();
}

export async function checkForRevert(services: HumanServices, caller: CallerContext, hive: HivePaths, backupDir: string, ids: readonly string[], token12: string): Promise<string[]> {
  const result = readJsonFile<Record<string, unknown>>(path.join(backupDir, 'result.json')) ?? {};
  // Rolled back (or otherwise settled) meanwhile: the ids are back on purpose.
  if (result.state !== 'committed') return [];
  const live = readStoreSnapshot(hive.store);
  const back = ids.filter((id) => live.byId.has(id));
  writeResult(backupDir, { ...result, post_check: { at: new Date().toISOString(), reverted_ids: back } });
  if (back.length > 0) {
    await services.record(caller, {
      event: 'warning',
      op: HIVE_QUARANTINE_OP,
      outcome: 'warning',
      token12,
      ids: back,
      backup: path.basename(backupDir),
      message: `${back.length} quarantined ${back.length === 1 ? 'entry is' : 'entries are'} back in the hive: a concurrent plugin rewrite reverted the quarantine. Quarantine again when the agents are idle.`,
    });
  }
  return back;
}
