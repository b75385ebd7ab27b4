import { ConsoleError } from '../../../shared/contract';
import type { ImportedArchive, StoreSummary } from '../../../shared/contract/stores';
import { loadSwarmConfig } from '../platform/config/load-config';
import { getEntry, listEntries } from '../store-index/entry-queries';
import { listEvents } from '../store-index/event-queries';
import { StoreIndexService, swarmDirExists } from '../store-index/store-index-service';
import { listDefects, listRecords, summariseStores } from '../store-index/store-queries';
import type { Workspace } from '../workspace/workspace';
import { describePluginUpgrade } from '../stores/plugin-upgrade';
import type { CoreContext } from './context';
import type { CallHandlers, SubscriptionHandlers } from './dispatcher';

const STORE_INDEX_SERVICE = 'store-index';

/** The workspace's store index, created (ingest + watcher) on first use. */
export function storeIndexOf(workspace: Workspace): StoreIndexService {
  return workspace.service(STORE_INDEX_SERVICE, () => {
    const service = new StoreIndexService(workspace.paths, workspace.cacheDir);
    return { value: service, dispose: () => service.close() };
  });
}

async function readyIndex(ctx: CoreContext): Promise<StoreIndexService> {
  const service = storeIndexOf(ctx.workspaces.current);
  await service.ready;
  return service;
}

/** A store the plugin imported into swarm.db says so first, so its table is never empty without the reason. */
function withArchives(stores: StoreSummary[], archives: readonly ImportedArchive[]): StoreSummary[] {
  return stores.map((store) => {
    const imported = archives.find((a) => a.storeKey === store.key) ?? null;
    return imported ? { ...store, imported, message: `${imported.notice}. ${store.message}` } : { ...store, imported: null };
  });
}

type StoreOps = 'stores.summary' | 'stores.defects' | 'stores.records' | 'stores.entries' | 'stores.entry' | 'stores.events' | 'stores.config';

export function createStoreHandlers(ctx: CoreContext): Pick<CallHandlers, StoreOps> & Pick<SubscriptionHandlers, 'stores.changes'> {
  return {
    'stores.summary': async () => {
      const service = await readyIndex(ctx);
      const paths = service.workspacePaths;
      const hasSwarm = swarmDirExists(paths);
      const upgrade = describePluginUpgrade(paths, service.storeLocations);
      return {
        project: paths.projectDir,
        hive: paths.hiveDir,
        swarmDirExists: hasSwarm,
        link: paths.link.pointerPresent
          ? { linkId: paths.link.linkId, dir: paths.link.dir, problem: paths.link.problem, orphanedLocalFiles: service.orphanedFiles.map((f) => f.name) }
          : null,
        index: { file: service.index.file, rebuiltBecause: service.index.reason },
        stores: withArchives(summariseStores(service.db, service.storeLocations, service.orphanedFiles, hasSwarm), upgrade.archives),
        upgrade,
      };
    },
    'stores.defects': async (input) => listDefects((await readyIndex(ctx)).db, input),
    'stores.records': async (input) => {
      const service = await readyIndex(ctx);
      const page = await service.fresh(() => listRecords(service.db, input));
      if (!page) throw new ConsoleError('not_found', `Unknown store: ${input.store}`);
      return page;
    },
    'stores.entries': async (input) => {
      const service = await readyIndex(ctx);
      return service.fresh(() => listEntries(service.db, service.columns.entries, input));
    },
    'stores.entry': async (input) => {
      const service = await readyIndex(ctx);
      const entry = await service.fresh(() => getEntry(service.db, input));
      if (!entry) throw new ConsoleError('not_found', `No knowledge entry ${input.id !== undefined ? `with id ${input.id}` : `#${input.rid}`}`);
      return entry;
    },
    'stores.events': async (input) => {
      const service = await readyIndex(ctx);
      return service.fresh(() => listEvents(service.db, service.columns.events, input));
    },
    'stores.config': () => {
      const config = loadSwarmConfig({ projectDir: ctx.workspaces.current.paths.projectDir });
      return { sources: config.sources, settings: config.settings };
    },
    'stores.changes': (_input, emit) => {
      // Follow whichever workspace is open: re-attach when the operator switches project.
      let detach = storeIndexOf(ctx.workspaces.current).onChange(emit);
      const stopSwitch = ctx.workspaces.onOpened((workspace) => {
        detach();
        detach = storeIndexOf(workspace).onChange(emit);
      });
      return () => {
        stopSwitch();
        detach();
      };
    },
  };
}
