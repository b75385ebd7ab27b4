import path from 'node:path';
import type { CallerContext } from '../human/confirmation';
import type { HumanServices } from '../human/runner';
import { readJsonFile, writeResult } from '../human/write/backup';
import { readStoreSnapshot } from '../human/write/store-snapshot';

/** Which store to re-read, for which removed ids, and where the commit's backup (and result.json) is. */
interface RevertWatch {
  op: string;
  store: string;
  backupDir: string;
  ids: readonly string[];
  token12: string;
}

/**
 * Rule 5.6.8: the plugin rewrites the hive and swarm stores from an unlocked read, so a promotion or
 * stamping pass that read the store before our commit can put the removed lines back. A few
 * seconds after the commit the console re-reads the store; if an id is back it records a warning
 * in result.json and the audit log (the status list and the Hive view show it). Returns when the
 * check will run.
 */
export function scheduleRevertCheck(services: HumanServices, caller: CallerContext, watch: RevertWatch): string {
  const at = Date.now() + services.revertCheckMs;
  const timer = setTimeout(() => void checkForRevert(services, caller, watch).catch(() => undefined), services.revertCheckMs);
  timer.unref();
  return new Date(at).toISOString();
}

export async function checkForRevert(services: HumanServices, caller: CallerContext, watch: RevertWatch): Promise<string[]> {
  const result = readJsonFile<Record<string, unknown>>(path.join(watch.backupDir, 'result.json')) ?? {};
  // Rolled back (or otherwise settled) meanwhile: the ids are back on purpose.
  if (result.state !== 'committed') return [];
  const live = readStoreSnapshot(watch.store);
  const back = watch.ids.filter((id) => live.byId.has(id));
  writeResult(watch.backupDir, { ...result, post_check: { at: new Date().toISOString(), reverted_ids: back } });
  if (back.length > 0) {
    await services.record(caller, {
      event: 'warning',
      op: watch.op,
      outcome: 'warning',
      token12: watch.token12,
      ids: back,
      backup: path.basename(watch.backupDir),
      message: `${back.length} ${back.length === 1 ? 'entry is' : 'entries are'} back in ${path.basename(watch.store)}: a concurrent plugin rewrite reverted the change. Do it again when the agents are idle.`,
    });
  }
  return back;
}
