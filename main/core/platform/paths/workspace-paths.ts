/** Where one workspace's stores live: the project, its `.swarm/`, the hive folder and the link redirect. */
import path from 'node:path';
import { resolveLink, type LinkResolution } from './link';

export interface WorkspacePaths {
  /** The worktree root (holds `.swarm/`). */
  projectDir: string;
  swarmDir: string;
  /** The plugin's `<dataDir>`: hive store, hive events, `links/`. */
  hiveDir: string;
  /** carried: the hive of the workspace open before, or the one this project was last opened with. */
  hiveSource: 'flag' | 'env' | 'demo' | 'carried';
  /** Where the knowledge family lives: the link dir when linked, else `swarmDir`. */
  knowledgeDir: string;
  link: LinkResolution;
  isDemo: boolean;
  /** Store files are read even where a symlink leads out of the workspace (the operator chose so). */
  allowSymlinksOutside: boolean;
}

export function resolveWorkspacePaths(
  projectDir: string,
  hiveDir: string,
  hiveSource: WorkspacePaths['hiveSource'],
  isDemo: boolean,
  allowSymlinksOutside = false,
): WorkspacePaths {
  const absoluteProject = path.resolve(projectDir);
  const absoluteHive = path.resolve(hiveDir);
  const link = resolveLink(absoluteProject, absoluteHive);
  const swarmDir = path.join(absoluteProject, '.swarm');
  return {
    projectDir: absoluteProject,
    swarmDir,
    hiveDir: absoluteHive,
    hiveSource,
    knowledgeDir: link.dir ?? swarmDir,
    link,
    isDemo,
    allowSymlinksOutside,
  };
}
