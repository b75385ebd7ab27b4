/**
 * `swarm-console record --project DIR [--hive DIR] [--user-data DIR]`
 *
 * Keeps the workspace's history while no console window is open: the store index and the history
 * recorder, headless (no UI, no port). One line on stdout per change batch; SIGTERM or SIGINT ends it
 * cleanly (the last batch is written, the observation closed, the lease released). It may run
 * beside the desktop app or another recorder on the same workspace: one process at a time holds the
 * workspace's history lease (main/core/history/history-lease.ts) and records; this one says so once,
 * waits, and takes over (catching up first) when the holder stops or is killed. It keeps a store
 * index of its own.
 *
 * Exit codes: 0 stopped by a signal · 1 could not start · 2 usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HistoryService } from '../core/history/history-service';
import type { BatchSummary } from '../core/history/recorder';
import { thinningLine } from '../core/history/thinning';
import { resolvePluginDataDir, currentPlatformEnv } from '../core/platform/paths/platform-data-dir';
import { resolveWorkspacePaths } from '../core/platform/paths/workspace-paths';
import { terminalLine } from '../core/platform/util/terminal-text';
import { StoreIndexService } from '../core/store-index/store-index-service';
import { Workspace } from '../core/workspace/workspace';
import { parseWorkspaceCommand, toWorkspaceArgs } from './workspace-args';

export function batchLine(batch: BatchSummary): string {
  const parts = [new Date(batch.at).toISOString()];
  if (batch.added) parts.push(`+${batch.added} added`);
  if (batch.changed) parts.push(`~${batch.changed} changed`);
  if (batch.gone) parts.push(`-${batch.gone} gone`);
  if (batch.events) parts.push(`${batch.events} event fact${batch.events === 1 ? '' : 's'}`);
  parts.push(batch.files.join(', '));
  return terminalLine(parts.join('  '));
}

/**
 * The recorder's own store index (`recorder-index-<pid>` beside history.db). Processes sharing one
 * index would see each other's half-done re-reads (a re-read clears and refills a file's rows over
 * several transactions); history is shared, the index is not. Folders of recorders that are gone are
 * removed.
 */
function privateIndexDir(dir: string): string {
  for (const name of fs.readdirSync(dir)) {
    const pid = /^recorder-index-(\d+)$/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  }
  return path.join(dir, `recorder-index-${process.pid}`);
}

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseWorkspaceCommand(argv, {}));
  } catch (error) {
    console.error(terminalLine(`swarm-console record: ${(error as Error).message}`));
    return 2;
  }
  const args = toWorkspaceArgs(values);
  if (!args.project || !fs.statSync(args.project, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(terminalLine(`swarm-console record: --project DIR is required and must be a folder${args.project ? ` (${args.project})` : ''}`));
    return 2;
  }
  let index: StoreIndexService;
  let history: HistoryService;
  let indexDir: string;
  try {
    const paths = resolveWorkspacePaths(args.project, args.hive ?? resolvePluginDataDir(currentPlatformEnv()), args.hive ? 'flag' : 'env', false);
    const dir = Workspace.cacheDirFor(args.userDataDir, paths);
    indexDir = privateIndexDir(dir);
    index = new StoreIndexService(paths, indexDir);
    const recording = () => console.error(terminalLine(`recording history of ${paths.projectDir} (hive ${paths.hiveDir}) into ${history.file}; SIGTERM or Ctrl-C stops`));
    history = new HistoryService(index, {
      dir,
      userDataDir: args.userDataDir,
      role: 'recorder',
      onBatch: (batch) => process.stdout.write(`${batchLine(batch)}\n`),
      onWaiting: (pid) => console.error(terminalLine(`another process is recording this workspace's history (pid ${pid ?? 'unknown'}); this one waits and takes over if it stops`)),
      onRecording: recording,
      onThinned: (report) => console.error(terminalLine(thinningLine(report))),
    });
    if (history.status.setAside) console.error(terminalLine(`swarm-console record: the history database could not be read (${history.status.setAside.reason}); set aside as ${history.status.setAside.file}, history restarts`));
    await history.ready;
  } catch (error) {
    console.error(terminalLine(`swarm-console record: could not start: ${(error as Error).message}`));
    return 1;
  }
  // The watcher alone may hold no reference that keeps Node running: wait for the signal explicitly.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => resolve());
  });
  clearInterval(keepAlive);
  await history.close();
  await index.close();
  fs.rmSync(indexDir, { recursive: true, force: true });
  console.error('recorder stopped');
  return 0;
}
