import path from 'node:path';
import type { CallerContext } from '../human/confirmation';
import type { HumanServices } from '../human/runner';
import { readJsonFile, writeResult } from '../human/write/backup';
import { readStoreSnapshot } from '../human/write/store-snapshot';

/** Which store to re-read for which restored id, and where the commit's backup (and result.json) is. */
export interface RestoreWatch {
  op: string;
  store: string;
  backupDir: string;
  id: string;
  token12: string;
}

/**
 * Rule 5.6.8 (docs/plugin-formats.md#second-process-writes) for an append: a plugin pass that read
 * the store before the restore and rewrites it after drops the restored line. A few seconds after
 * the commit the console re-reads the store; if the id is gone it records a warning in result.json
 * and the audit log. Returns when the check will run.
 */
export function scheduleRestoreCheck(services: HumanServices, caller: CallerContext, watch: RestoreWatch): string {
  const timer = setTimeout(() => void checkRestoreKept(services, caller, watch).catch(() => undefined), services.revertCheckMs);
  timer.unref();
  return new Date(Date.now() + services.revertCheckMs).toISOString();
}

/** Whether the restored id is still in the store (false: a warning was recorded). */
export async function checkRestoreKept(services: HumanServices, caller: CallerContext, watch: RestoreWatch): Promise<boolean> {
  const result = readJsonFile<Record<string, unknown>>(path.join(watch.backupDir, 'result.json')) ?? {};
  if (result.state !== 'committed') return true;
  const kept = readStoreSnapshot(watch.store).byId.has(watch.id);
  writeResult(watch.backupDir, { ...result, post_check: { at: new Date().toISOString(), dropped_ids: kept ? [] : [watch.id] } });
  if (!kept) {
    await services.record(caller, {
      event: 'warning',
      op: watch.op,
      outcome: 'warning',
      token12: watch.token12,
      ids: [watch.id],
      backup: path.basename(watch.backupDir),
      message: `The restored entry ${watch.id} is no longer in ${path.basename(watch.store)}: a concurrent plugin rewrite (or its cap) dropped it. Restore it again when the agents are idle.`,
    });
  }
  return kept;
}
