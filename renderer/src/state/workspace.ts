import { createContext, createSignal, onCleanup, useContext, type Accessor } from 'solid-js';
import type { ConsoleApi } from '../../../shared/contract';
import type { WorkspaceInfo } from '../../../shared/contract/workspace';

interface WorkspaceStore {
  info: Accessor<WorkspaceInfo | undefined>;
  /** Increments whenever another workspace is opened: queries depend on it to refetch. */
  epoch: Accessor<number>;
  error: Accessor<string | undefined>;
  /** `allowSymlinksOutside`: read store files whose symlinks lead out of the workspace (this opening only). */
  open(project: string | null, hive?: string, allowSymlinksOutside?: boolean): Promise<boolean>;
}

export function createWorkspaceStore(api: ConsoleApi): WorkspaceStore {
  const [info, setInfo] = createSignal<WorkspaceInfo>();
  const [epoch, setEpoch] = createSignal(0);
  const [error, setError] = createSignal<string>();
  const adopt = (next: WorkspaceInfo) => {
    const changed = info() !== undefined && info()?.project.path !== next.project.path;
    setInfo(next);
    if (changed) setEpoch((n) => n + 1);
  };
  api.call('workspace.info', {}).then(adopt, (e: Error) => setError(e.message));
  const stop = api.subscribe(
    'workspace.events',
    {},
    (event) => adopt(event.info),
    () => api.call('workspace.info', {}).then(adopt, (e: Error) => setError(e.message)),
  );
  onCleanup(stop);
  return {
    info,
    epoch,
    error,
    async open(project, hive, allowSymlinksOutside) {
      try {
        setError(undefined);
        adopt(await api.call('workspace.open', { project, ...(hive ? { hive } : {}), ...(allowSymlinksOutside ? { allowSymlinksOutside } : {}) }));
        return true;
      } catch (e) {
        setError((e as Error).message);
        return false;
      }
    },
  };
}

export const WorkspaceContext = createContext<WorkspaceStore>();

export function useWorkspace(): WorkspaceStore {
  const store = useContext(WorkspaceContext);
  if (!store) throw new Error('useWorkspace() outside <WorkspaceContext.Provider>');
  return store;
}
