import fs from 'node:fs';
import path from 'node:path';
import { HistoryService } from '../../core/history/history-service';
import { LEASE_STALE_MS } from '../../core/history/history-lease';
import { resolveWorkspacePaths } from '../../core/platform/paths/workspace-paths';
import { StoreIndexService } from '../../core/store-index/store-index-service';
import { matchPath } from '../../core/stores/locate';
import { Workspace } from '../../core/workspace/workspace';
import type { DemoWeek } from '../week-script';

export interface ReplaySummary {
  /** Moments something was written. */
  steps: number;
  /** Store files written (appends and rewrites). */
  writes: number;
  /** The workspace folder whose history.db (and index) now hold the week. */
  workspaceDir: string;
}

/**
 * Writes one store file as the plugin does (docs/plugin-formats.md#temp-and-rename): a log that only grew gets its
 * new lines appended, anything else is written to a temp file and renamed over it. The file's time is the
 * scripted moment, so the index dates the state it reads as the plugin's write would have.
 */
function writeAsPlugin(file: string, before: string, after: string, at: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (before.length > 0 && after.startsWith(before) && fs.existsSync(file)) fs.appendFileSync(file, after.slice(before.length));
  else {
    const temp = `${file}.tmp.${at}.demo`;
    fs.writeFileSync(temp, after);
    fs.renameSync(temp, file);
  }
  fs.utimesSync(file, at / 1000, at / 1000);
}

/** Whether another process records this workspace's history now (its lease is fresh). */
function someoneRecords(workspaceDir: string): boolean {
  const lock = path.join(workspaceDir, 'history.db.lock');
  const stat = fs.statSync(lock, { throwIfNoEntry: false });
  return stat !== undefined && Date.now() - stat.mtimeMs < LEASE_STALE_MS;
}

/**
 * Replays the scripted week into the demo workspace's own history, through the console's real machinery: the
 * store files are set to the week's start and rewritten step by step; the store index (the one the console
 * opens later, in the workspace's folder) reads each write and reports what changed; the history recorder
 * records each report at the step's scripted time (its clock is the script's). A person "has the console open"
 * from the week's start until `lastLooked` (role `app`: closing it remembers "when I last looked"), then the
 * headless recorder (role `recorder`) keeps history until the anchor, so the week has no unobserved gap.
 *
 * The demo's files must be the generator's when this starts; they are the generator's again when it ends.
 * Returns null (and changes nothing) when another process records this workspace.
 */
export async function replayDemoWeek(userDataDir: string, projectDir: string, hiveDir: string, week: DemoWeek): Promise<ReplaySummary | null> {
  const paths = resolveWorkspacePaths(projectDir, hiveDir, 'demo', true);
  const workspaceDir = Workspace.cacheDirPath(userDataDir, paths);
  if (someoneRecords(workspaceDir)) return null;
  // A regenerated demo starts a new history (and index): the old ones describe files that no longer exist.
  fs.rmSync(workspaceDir, { recursive: true, force: true });
  Workspace.cacheDirFor(userDataDir, paths);

  let clock = week.start;
  const now = () => clock;
  const contents = new Map(week.files.map((file) => [file.path, file.at(week.start)]));
  for (const file of week.files) writeAsPlugin(file.path, fs.existsSync(file.path) ? fs.readFileSync(file.path, 'utf8') : '', contents.get(file.path) as string, week.start);

  const index = new StoreIndexService(paths, workspaceDir, { watch: false });
  let history: HistoryService | null = null;
  let writes = 0;
  try {
    await index.ready;
    const open = async (role: 'app' | 'recorder') => {
      const service = new HistoryService(index, { dir: workspaceDir, userDataDir, role, now });
      await service.ready;
      if (!service.recording) {
        await service.close();
        throw new Error('another process records the demo workspace');
      }
      return service;
    };
    history = await open('app');
    for (const t of week.times) {
      if (history && t > week.lastLooked && clock <= week.lastLooked) {
        clock = week.lastLooked;
        await history.close();
        history = null;
        history = await open('recorder');
      }
      clock = t;
      for (const file of week.files) {
        const before = contents.get(file.path) as string;
        const after = file.at(t);
        if (after === before) continue;
        writeAsPlugin(file.path, before, after, t);
        contents.set(file.path, after);
        writes++;
        // One file at a time, in the script's order: history records the same week on every generation.
        const located = matchPath(index.storeLocations, file.path);
        if (located) await index.schedule(located);
      }
      await history?.settle();
    }
    clock = week.end;
    await history?.close();
    history = null;
  } catch (error) {
    // Half a week is not history: the console starts this workspace's history (and index) afresh instead.
    await history?.close().catch(() => undefined);
    await index.close().catch(() => undefined);
    fs.rmSync(workspaceDir, { recursive: true, force: true });
    throw error;
  }
  await index.close();
  return { steps: week.times.length, writes, workspaceDir };
}
