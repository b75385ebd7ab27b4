/**
 * Indexes a workspace from its own process, so a test can kill it mid-ingest (SIGKILL, nothing
 * flushed or closed): `run-ts.mjs ingest-child.ts <project> <hive> <cacheDir>`. Prints `ready`
 * once the index is built and every file synced.
 */
import { StoreIndexService } from '../../main/core/store-index/store-index-service';
import { resolveWorkspacePaths } from '../../main/core/platform/paths/workspace-paths';

const [project, hive, cacheDir] = process.argv.slice(2) as [string, string, string];
const service = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), cacheDir, { watch: false });
await service.ready;
await service.close();
process.stdout.write('ready\n');
