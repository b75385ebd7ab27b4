import { z } from 'zod';
import { command, NoInput, query, subscription } from './define';
import { PluginUpgrade } from './stores';

/** Which project and hive the console has open, and how it found them. */
export const WorkspaceInfo = z.object({
  project: z.object({
    path: z.string(),
    name: z.string(),
    isDemo: z.boolean(),
    swarmDirExists: z.boolean(),
    /** The operator allowed reading store files whose symlinks lead outside the project and hive. */
    symlinksOutsideAllowed: z.boolean(),
  }),
  hive: z.object({
    path: z.string(),
    /** flag: --hive; env: resolved from the environment as the plugin does; demo: the generated demo hive. */
    /** carried: not named at this opening — the hive of the workspace open before, or the one this project was last opened with. */
    source: z.enum(['flag', 'env', 'demo', 'carried']),
    exists: z.boolean(),
    /** Whether the folder is the plugin's data folder; `message` ("no hive here: …") when it is not, `suggestion` when it is the folder above. */
    check: z.object({
      state: z.enum(['hive', 'parent', 'empty', 'missing', 'not_a_folder']),
      message: z.string().nullable(),
      suggestion: z.string().nullable(),
    }),
  }),
  /** Set when `.swarm/link.json` redirects the knowledge family to `<hive>/links/<linkId>`. */
  link: z
    .object({
      linkId: z.string(),
      dir: z.string(),
      pointerValid: z.boolean(),
      problem: z.string().nullable(),
      /** Local `.swarm/` knowledge-family files (e.g. `knowledge.jsonl` copied before `/swarm link`) the plugin ignores while linked. */
      orphanedLocalFiles: z.array(z.string()),
      /** The link store folder exists under this hive (a wrong hive folder leaves it missing). */
      storeExists: z.boolean(),
    })
    .nullable(),
  /** A newer plugin keeps stores in `.swarm/swarm.db`: what the console found and what it says about it. */
  upgrade: PluginUpgrade.optional(),
  host: z.enum(['electron', 'browser']),
  userDataDir: z.string(),
  recentProjects: z.array(z.object({ path: z.string(), name: z.string(), isDemo: z.boolean(), /** The hive it was last opened with, when one was named or carried. */ hive: z.string().optional() })),
  /** Projects of the generated demo workspace (one unlinked, one linked to a shared link store). */
  demoProjects: z.array(z.object({ path: z.string(), name: z.string(), /** What the project stands for (which plugin shape). */ note: z.string().optional() })),
  version: z.string(),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

/** POSIX `/…`, Windows `C:\…` or a UNC `\\server\share`: the shared layer cannot use node:path. */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * A folder the operator names: absolute (a relative path would resolve against wherever the
 * console happened to start) and free of NUL bytes (which the file system APIs would cut at).
 */
const AbsoluteFolder = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'must not contain NUL bytes')
  .refine((p) => ABSOLUTE_PATH.test(p), 'must be an absolute path');

const OpenWorkspaceInput = z
  .object({
    /** Absolute project directory (the folder holding `.swarm/`); `null` opens the demo workspace. */
    project: AbsoluteFolder.nullable(),
    /** Plugin data folder holding `shared-learnings.jsonl`; omitted: resolved as the plugin does. */
    hive: AbsoluteFolder.optional(),
    /**
     * Read store files even where a symlink leads outside the project and the plugin's data folder
     * (off by default: such files are reported "symlink outside the workspace — not read"). For
     * this opening of the workspace only.
     */
    allowSymlinksOutside: z.boolean().optional(),
  })
  .strict();

const WorkspaceEvent = z.object({ kind: z.literal('opened'), info: WorkspaceInfo });

export const workspaceOps = {
  'workspace.info': query('The open project, hive and link, and the recent projects.', NoInput, WorkspaceInfo),
  'workspace.open': command('Open another project (or the demo workspace) and its hive.', OpenWorkspaceInput, WorkspaceInfo),
  'workspace.events': subscription('Pushed when another workspace has been opened.', NoInput, WorkspaceEvent),
} as const;
