import { createSignal, For, Show } from 'solid-js';
import { useWorkspace } from '../state/workspace';
import { HiveCheckNote } from './WorkspaceNotes';

/** Switch between the demo workspace, recent projects, or any project folder by path. */
export function ProjectSwitcher() {
  const workspace = useWorkspace();
  const [open, setOpen] = createSignal(false);
  const [path, setPath] = createSignal('');
  const [hive, setHive] = createSignal('');
  const [allowOutside, setAllowOutside] = createSignal(false);
  // A hive folder that is the one above the plugin's data folder keeps the switcher open, so the
  // one-click fix is seen; any other "no hive here" stays in the status bar and in this popover.
  // A project opened without a hive keeps the open one (a linked worktree shares its checkout's hive).
  const carriedHive = () => {
    const info = workspace.info();
    return info && !info.project.isDemo && (info.hive.source === 'flag' || info.hive.source === 'carried') ? info.hive.path : null;
  };
  const hivePlaceholder = () =>
    carriedHive() ? `default: the open hive, ${carriedHive()}` : '…/opencode-swarm (holds shared-learnings.jsonl); default: as the plugin resolves it';
  const choose = async (project: string | null, hiveDir?: string, allowSymlinksOutside?: boolean) => {
    if (!(await workspace.open(project, hiveDir, allowSymlinksOutside))) return;
    if (hiveDir && workspace.info()?.hive.check.suggestion) setHive(hiveDir);
    else setOpen(false);
  };
  return (
    <div class="project-switcher">
      <button type="button" class="project-button" aria-haspopup="dialog" aria-expanded={open()} onClick={() => setOpen(!open())}>
        <span class="project-label">Project</span>
        <span class="project-name" data-testid="current-project">
          {workspace.info()?.project.name ?? '…'}
          {workspace.info()?.project.isDemo ? ' (demo)' : ''}
        </span>
      </button>
      <Show when={open()}>
        <div class="project-popover" role="dialog" aria-label="Switch project">
          <For each={workspace.info()?.demoProjects ?? []} fallback={<button type="button" class="project-option" onClick={() => choose(null)}>Demo workspace</button>}>
            {(demo) => (
              <button type="button" class="project-option" title={demo.note ? `${demo.note}\n${demo.path}` : demo.path} onClick={() => choose(demo.path)}>
                Demo: {demo.name}
              </button>
            )}
          </For>
          <For each={workspace.info()?.recentProjects.filter((p) => !p.isDemo) ?? []}>
            {(recent) => (
              <button type="button" class="project-option" title={recent.path} onClick={() => choose(recent.path)}>
                {recent.name} <span class="muted">{recent.path}</span>
              </button>
            )}
          </For>
          <form
            class="project-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (path().trim()) void choose(path().trim(), hive().trim() || undefined, allowOutside());
            }}
          >
            <label>
              Project folder
              <input name="project" placeholder="/path/to/project (holds .swarm/)" value={path()} onInput={(e) => setPath(e.currentTarget.value)} />
            </label>
            <label>
              Hive folder (optional)
              <input name="hive" placeholder={hivePlaceholder()} value={hive()} onInput={(e) => setHive(e.currentTarget.value)} />
            </label>
            <label class="project-allow-outside" title="Off: a store file whose symlink leads outside the project and the plugin's data folder is not read">
              <input type="checkbox" name="allowSymlinksOutside" checked={allowOutside()} onChange={(e) => setAllowOutside(e.currentTarget.checked)} />
              Read store files symlinked outside the project and hive
            </label>
            <button type="submit">Open</button>
          </form>
          <p class="muted small" data-testid="switcher-current-hive">
            Hive: {workspace.info()?.hive.path ?? '…'}
            {carriedHive() ? ' — kept for projects opened here without a hive folder' : ''}
          </p>
          <Show when={workspace.info()?.hive.check.message ? workspace.info() : undefined}>
            {(info) => (
              <p class="hive-check" role="status" data-testid="switcher-hive-check">
                <HiveCheckNote
                  info={info()}
                  testId="switcher-hive-note"
                  onUse={(suggestion) => {
                    setHive(suggestion);
                    void choose(info().project.path, suggestion);
                  }}
                />
              </p>
            )}
          </Show>
          <Show when={workspace.error()}>
            <p class="error" role="alert">
              {workspace.error()}
            </p>
          </Show>
        </div>
      </Show>
    </div>
  );
}
