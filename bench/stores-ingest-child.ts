/**
 * The indexing process of the stores benchmark: ingests a workspace into a new index and prints
 * its time and peak RSS on one `STORES_CHILD {…}` line (stores.bench.ts runs it in a child process).
 *
 * The bench compiles this file and the parse worker to JavaScript first (compiled-child.ts), as
 * the app ships its main bundle and workers, and runs it under plain Node: from the TypeScript
 * sources, tsx would count in the figures — its transpiler held about 40 MB of the process's RSS
 * before the index opened, and a worker started from sources spends about 0.74 s of CPU transpiling (0.11 s compiled).
 * Usage: node <compiled>/stores-ingest-child.js <project> <hive> <user-data-dir>
 */
import { StoreIndexService } from '../main/core/store-index/store-index-service';
import { Workspace } from '../main/core/workspace/workspace';
import { resolveWorkspacePaths } from '../main/core/platform/paths/workspace-paths';
import { startWorkersFromSources } from '../main/core/platform/util/built-worker';

export interface ChildResult {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  /** RSS when the index is about to open: the runtime and the loaded code, before any store is read. */
  startRssMb: number;
  rows: number;
  /** Whether the indexing code ran compiled (as the app ships it) or from the TypeScript sources. */
  compiled: boolean;
}

const compiled = !import.meta.url.endsWith('.ts');
const [project, hive, userDataDir] = process.argv.slice(2);
if (!project || !hive || !userDataDir) {
  console.error('usage: stores-ingest-child <project> <hive> <user-data-dir>');
  process.exit(2);
}
// Compiled, the parse worker is found next to this file as the app finds it (built-worker.ts).
// From sources (no esbuild), it starts from sources too, and its tsx start-up counts as ingest.
if (!compiled) startWorkersFromSources((await import('../testing/workers/source-worker')).sourceWorkerByName);

const paths = resolveWorkspacePaths(project, hive, 'flag', false);
const startRssMb = process.memoryUsage().rss / 2 ** 20;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const service = new StoreIndexService(paths, Workspace.cacheDirFor(userDataDir, paths), { watch: false });
await service.ready;
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const rows = (service.db.prepare('SELECT coalesce(sum(records), 0) AS n FROM files').get() as { n: number }).n;
await service.close();
const result: ChildResult = { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, startRssMb, rows, compiled };
process.stdout.write(`STORES_CHILD ${JSON.stringify(result)}\n`);
