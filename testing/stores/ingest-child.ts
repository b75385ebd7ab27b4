/**
 * Indexes a workspace from its own process, so a test can kill it mid-ingest (SIGKILL, nothing
 * flushed or closed): `run-ts.mjs ingest-child.ts <project> <hive> <cacheDir>`. Prints `ready`
 * once the index is built and every file synced. With INGEST_PARSE_WORKER=<bytes>, files that big
 * parse on the parse worker (from sources), as in the built app.
 */
import { StoreIndexService } from '../../main/core/store-index/store-index-service';
import { resolveWorkspacePaths } from '../../main/core/platform/paths/workspace-paths';
import { sourceParseWorkerSpec } from '../workers/source-worker';

const [project, hive, cacheDir] = process.argv.slice(2) as [string, string, string];
const service = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), cacheDir, { watch: false, ...(process.env.INGEST_PARSE_WORKER ? { parseWorker: sourceParseWorkerSpec, parseWorkerMinBytes: Number(process.env.INGEST_PARSE_WORKER) } : {}) });
await service.ready;
await service.close();
process.stdout.write('ready\n');
