import path from 'node:path';
import fs from 'node:fs';
import { LINK_REDIRECTED_FILES } from '../platform/paths/link';
import { checkHiveFolder } from '../platform/paths/hive-folder';
import type { WorkspaceInfo } from '../../../shared/contract/workspace';
import type { Workspace } from '../workspace/workspace';
import type { CoreContext } from './context';
import { describePluginUpgrade } from '../stores/plugin-upgrade';
import { locateStores } from '../stores/locate';
import type { CallHandlers, SubscriptionHandlers } from './dispatcher';

function describeWorkspace(ctx: CoreContext, workspace: Workspace): WorkspaceInfo {
  const { paths } = workspace;
  return {
    project: {
      path: paths.projectDir,
      name: path.basename(paths.projectDir),
      isDemo: paths.isDemo,
      swarmDirExists: fs.existsSync(paths.swarmDir),
      symlinksOutsideAllowed: paths.allowSymlinksOutside,
    },
    hive: { path: paths.hiveDir, source: paths.hiveSource, exists: fs.existsSync(paths.hiveDir), check: checkHiveFolder(paths.hiveDir) },
    link: paths.link.pointerPresent
      ? {
          linkId: paths.link.linkId ?? '',
          dir: paths.link.dir ?? '',
          pointerValid: paths.link.linkId !== null,
          problem: paths.link.problem,
          // Read now, not at open: the local copy may appear or go while the workspace is open.
          orphanedLocalFiles: paths.link.dir ? LINK_REDIRECTED_FILES.filter((file) => fs.existsSync(path.join(paths.swarmDir, file))) : [],
          storeExists: paths.link.dir !== null && fs.existsSync(paths.link.dir),
        }
      : null,
    upgrade: describePluginUpgrade(paths, locateStores(paths)),
    host: ctx.options.host,
    userDataDir: ctx.options.userDataDir,
    recentProjects: ctx.workspaces.recentProjects(),
    demoProjects: ctx.workspaces.demoProjects(),
    version: ctx.options.version,
  };
}

export function createWorkspaceHandlers(
  ctx: CoreContext,
): Pick<CallHandlers, 'workspace.info' | 'workspace.open'> & Pick<SubscriptionHandlers, 'workspace.events'> {
  return {
    'workspace.info': () => describeWorkspace(ctx, ctx.workspaces.current),
    'workspace.open': async ({ project, hive, allowSymlinksOutside }) => describeWorkspace(ctx, await ctx.workspaces.open({ project, hive, allowSymlinksOutside })),
    'workspace.events': (_input, emit) => ctx.workspaces.onOpened((workspace) => emit({ kind: 'opened', info: describeWorkspace(ctx, workspace) })),
  };
}
