import { For, Show, type JSX } from 'solid-js';
import type { z } from 'zod';
import type { SkillItem, SkillsOverview } from '../../../../shared/contract/skills';
import { Markdown } from './Markdown';
import { when } from '../../state/format';
import { staleDisagreement } from './stale-claims';

type Improver = z.infer<typeof SkillsOverview>['improver'];
type Candidates = z.infer<typeof SkillsOverview>['candidates'];

/** Skill-improver proposals, newest first, with who wrote them and the quota state. Advisory only. */
export function ImproverPanel(props: { improver: Improver; skills: SkillItem[] }): JSX.Element {
  return (
    <div class="improver-panel" data-testid="improver-panel">
      <h3>Quotas</h3>
      <ul data-testid="improver-quotas">
        <For each={props.improver.quotas}>
          {(q) => (
            <li>
              <span class="mono">{q.file}</span>:{' '}
              <Show when={q.present} fallback="not written yet">
                <Show when={!q.problem} fallback={<span class="error">{q.problem}</span>}>
                  {q.callsUsed}/{q.maxCalls} calls on {q.date} ({q.window}){q.resetsOnNextRun ? ' — a new day: the plugin resets the count on its next run' : ''}
                  {q.lastRunAt ? `; last run ${when(q.lastRunAt)}` : ''}
                </Show>
              </Show>
            </li>
          )}
        </For>
      </ul>
      <h3>Proposals (newest first)</h3>
      <p class="muted">Proposals are advisory: the plugin has no apply command for them.</p>
      <For each={props.improver.proposals} fallback={<p class="muted">No skill-improver proposals.</p>}>
        {(p) => (
          <section class="digest" data-testid="improver-proposal">
            <h4>
              <Show when={p.source === 'llm'} fallback={<span class="badge warn" data-testid="improver-source">deterministic fallback — not an LLM analysis</span>}>
                <span class="badge info" data-testid="improver-source">
                  LLM analysis
                </span>
              </Show>{' '}
              {when(p.generatedAt)} · targets {p.targets.join(', ') || '—'}
              {p.model ? ` · model ${p.model}` : ''}
            </h4>
            <Show when={staleDisagreement(p, props.skills)}>
              {(text) => (
                <p class="banner warn small" data-testid="stale-differs">
                  {text()}
                </p>
              )}
            </Show>
            <Show when={p.problems.length}>
              <p class="banner warn">{p.problems.join('; ')}</p>
            </Show>
            <Markdown source={p.body} />
          </section>
        )}
      </For>
    </div>
  );
}

/** External skill candidates (a separate plugin feature): read-only. */
export function CandidatesPanel(props: { candidates: Candidates }): JSX.Element {
  return (
    <div data-testid="candidates-panel">
      <p class="muted">External skill candidates from .swarm/skills/candidates (read-only).</p>
      <For each={props.candidates} fallback={<p class="muted">No external candidates.</p>}>
        {(c) => (
          <details class="digest" data-testid="candidate">
            <summary>
              <span class="mono">{c.name ?? c.id}</span> <span class="badge">{c.state ?? 'state unknown'}</span> <span class={`badge ${c.verdict === 'safe' ? 'ok' : 'warn'}`}>{c.verdict ?? 'no verdict'}</span>{' '}
              <For each={c.riskFlags}>{(f) => <span class="badge danger">{f}</span>}</For>
              <span class="muted"> {c.source}</span>
            </summary>
            <Show when={c.problem}>
              <p class="error">{c.problem}</p>
            </Show>
            <pre class="skill-source">{c.json}</pre>
          </details>
        )}
      </For>
    </div>
  );
}
