import { createSignal, For, Show, type JSX } from 'solid-js';
import type { Input, Output } from '../../../../shared/contract';
import { useApi } from '../../api/port';
import { FreshnessNote, recheckWhileStale } from '../../components/FreshnessNote';
import { Badge } from '../../components/Badge';
import { fixed, plural } from '../../state/format';

type Preview = Output<'knowledge.previewInjection'>;
type Line = Preview['lines'][number];

const EXCLUSION_TEXT: Record<string, string> = {
  inactive_status: 'inactive status',
  scope_filter: 'scope not in scope_filter',
  retracted: 'retracted',
  hive_disabled: 'hive disabled',
};

function placement(line: Line): string {
  if (line.selection === 'beyond_max_inject_count') return 'not selected: beyond max_inject_count';
  if (line.selection === 'below_confidence_floor') return 'not injected: confidence below 0.80';
  const parts = [];
  if (line.directiveBlock === 'included') parts.push('directive block');
  if (line.directiveBlock === 'cut_by_budget') parts.push('cut from the directive block by its budget');
  if (line.lessonBlock === 'included') parts.push('lesson list');
  if (line.lessonBlock === 'cut_by_budget') parts.push('cut from the lesson list by its budget');
  return parts.join(' · ') || 'cut';
}

function Components(props: { line: Line }) {
  const l = () => props.line;
  return (
    <span class="mono small">
      cat {fixed(l().baseScore.category)}·0.40 + conf {fixed(l().baseScore.confidence)}·0.35 + kw {fixed(l().baseScore.keywords)}·0.25
      {l().baseScore.tierBoost ? ` + hive ${fixed(l().baseScore.tierBoost)}` : ''}
      {l().baseScore.sameProjectPenalty ? ` ${fixed(l().baseScore.sameProjectPenalty)} same project` : ''} = base {fixed(l().baseScore.base)}; directive {fixed(l().directive.score)}
      {` (${[l().directive.triggerHit ? `trigger "${l().directive.matchedTrigger}"` : '', l().directive.toolHit ? 'tool' : '', l().directive.agentHit ? 'agent' : '', l().directive.priority ? `priority ${fixed(l().directive.priority)}` : ''].filter(Boolean).join(', ') || 'no hit'})`}
      {l().contextual.confidentMatchBoost ? ` + confident match ${fixed(l().contextual.confidentMatchBoost)}` : ''}
      {l().contextual.skillBoost ? ` + skill ${fixed(l().contextual.skillBoost)}` : ''} = <b>{fixed(l().contextual.final)}</b>
    </span>
  );
}

/** "Would it fire?": the operator describes a decision point and sees what the documented rules would inject. */
export function InjectionPreview(): JSX.Element {
  const api = useApi();
  const [form, setForm] = createSignal({ phase: 'Phase 5: implement refunds', agent: 'coder', tool: 'task', files: '', task: '', headroom: 70 });
  const [result, setResult] = createSignal<Preview | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  /** What the result shown was computed for: asked again while the result is stale. */
  const [lastInput, setLastInput] = createSignal<Input<'knowledge.previewInjection'> | null>(null);
  const update = (key: keyof ReturnType<typeof form>, value: string | number) => setForm({ ...form(), [key]: value });
  const run = async (event: Event) => {
    event.preventDefault();
    const f = form();
    const input: Input<'knowledge.previewInjection'> = {
      phase: f.phase,
      headroomPercent: Math.max(0, Math.min(100, Number(f.headroom) || 0)),
      filePaths: f.files.split(/[\n,]/).map((p) => p.trim()).filter(Boolean).slice(0, 50),
      ...(f.agent.trim() ? { agent: f.agent.trim() } : {}),
      ...(f.tool.trim() ? { tool: f.tool.trim() } : {}),
      ...(f.task.trim() ? { taskText: f.task.trim() } : {}),
    };
    await preview(input);
  };
  const preview = async (input: Input<'knowledge.previewInjection'>) => {
    try {
      setError(null);
      setResult(await api.call('knowledge.previewInjection', input));
      setLastInput(input);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  recheckWhileStale(() => result()?.freshness, () => void (lastInput() && preview(lastInput()!)));
  return (
    <section class="panel injection-preview" aria-label="Injection preview">
      <h3>Injection preview</h3>
      <p class="preview-label">Preview of the documented rules — it restates the plugin's ranking and budget rules; it is not a trace of what a session received.</p>
      <form class="preview-form" onSubmit={run}>
        <label>
          Phase
          <input value={form().phase} onInput={(e) => update('phase', e.currentTarget.value)} maxLength={200} />
        </label>
        <label>
          Agent
          <input value={form().agent} onInput={(e) => update('agent', e.currentTarget.value)} maxLength={64} />
        </label>
        <label>
          Tool
          <input value={form().tool} onInput={(e) => update('tool', e.currentTarget.value)} maxLength={64} />
        </label>
        <label>
          File paths (comma-separated)
          <input value={form().files} onInput={(e) => update('files', e.currentTarget.value)} />
        </label>
        <label>
          Task text
          <input value={form().task} onInput={(e) => update('task', e.currentTarget.value)} maxLength={2000} />
        </label>
        <label>
          Context headroom %
          <input type="number" min="0" max="100" value={form().headroom} onInput={(e) => update('headroom', e.currentTarget.valueAsNumber)} />
        </label>
        <button type="submit" class="primary">
          Preview
        </button>
      </form>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={result()}>
        {(r) => (
          <div data-testid="preview-result">
            <FreshnessNote freshness={r().freshness} what="Ranked from the lessons" />
            <p>
              Budget regime <Badge tone={r().regime === 'skipped' ? 'danger' : r().regime === 'full' ? 'ok' : 'warn'}>{r().regime}</Badge> · headroom {r().headroomChars.toLocaleString()} of{' '}
              {r().modelLimitChars.toLocaleString()} chars · budget {r().effectiveBudget} chars (directives {r().directiveBudget}, lessons {r().lessonBudget}) · max {plural(r().maxInjectCount, 'entry', 'entries')} ·{' '}
              {r().consideredCount} lessons considered
            </p>
            <ol class="preview-lines">
              <For each={r().lines}>
                {(line) => (
                  <li classList={{ muted: line.selection !== 'selected' }} data-testid="preview-line">
                    <Badge tone={line.pass === 'critical_match' ? 'critical' : 'muted'}>{line.pass === 'critical_match' ? 'critical match' : `#${line.rank}`}</Badge> <Badge>{line.tier}</Badge>{' '}
                    {line.lesson}
                    <br />
                    <Components line={line} /> — <span>{placement(line)}</span>
                  </li>
                )}
              </For>
            </ol>
            <Show when={r().merged.length}>
              <h4>
                Merged near-duplicates ({r().mergedCount}
                {r().mergedCount > r().merged.length ? `, first ${r().merged.length} listed` : ''})
              </h4>
              <ul data-testid="preview-merged">
                <For each={r().merged}>
                  {(m) => (
                    <li class="mono small">
                      {m.droppedId} dropped for {m.keptId} ({m.kind.replace(/_/g, ' ')}, similarity {fixed(m.similarity)})
                    </li>
                  )}
                </For>
              </ul>
            </Show>
            <Show when={r().excluded.length}>
              <h4>Left out before ranking</h4>
              <ul>
                <For each={r().excluded}>
                  {(x) => (
                    <li>
                      {EXCLUSION_TEXT[x.reason] ?? x.reason}: {x.count}
                    </li>
                  )}
                </For>
              </ul>
            </Show>
            <h4>{'<swarm_knowledge_directives>'} block</h4>
            <pre data-testid="preview-block">{r().directiveBlock ?? '(nothing would be injected)'}</pre>
            <h4>Lesson list</h4>
            <pre>{r().lessonBlock ?? '(nothing would be injected)'}</pre>
            <details>
              <summary>Rules this preview applies</summary>
              <ul>
                <For each={r().rules}>{(rule) => <li>{rule}</li>}</For>
              </ul>
            </details>
          </div>
        )}
      </Show>
    </section>
  );
}
