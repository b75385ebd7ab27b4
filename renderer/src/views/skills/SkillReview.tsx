import { For, Show, type JSX } from 'solid-js';
import type { SkillDetail } from '../../../../shared/contract/skills';
import { EvalTable } from './EvalTable';
import { Markdown } from './Markdown';
import { when } from '../../state/format';

export const PANES = [
  { id: 'rendered', label: 'Rendered' },
  { id: 'source', label: 'Source' },
  { id: 'diff', label: 'Diff vs active' },
  { id: 'fields', label: 'Frontmatter' },
  { id: 'sources', label: 'Source entries' },
  { id: 'eval', label: 'Eval preview' },
  { id: 'logs', label: 'Changelog & usage' },
  { id: 'rejected', label: 'Rejected edits' },
] as const;
export type PaneId = (typeof PANES)[number]['id'];

const num = (n: number | null, digits = 2) => (n === null ? '—' : n.toFixed(digits));

/** The review pane of one draft or skill: its text, how it differs, what it rests on, how it scores, and the decisions. */
export function SkillReview(props: { detail: SkillDetail; pane: PaneId; onPane: (pane: PaneId) => void; onOpenEntry: (id: string, tier: string | null) => void }): JSX.Element {
  const d = () => props.detail;
  return (
    <article class="skill-review" data-testid="skill-review">
      <header>
        <h2 data-testid="skill-review-title">
          <span class="mono">{d().item.slug}</span> <span class={`badge kind-${d().item.kind}`}>{d().item.kind}</span>
          <Show when={d().item.rejected}>
            {(r) => (
              <span class="badge danger" title={`${r().operation ?? ''}: ${r().reason ?? ''}`}>
                rejected ({r().operation})
              </span>
            )}
          </Show>
        </h2>
        <p>{d().item.title}</p>
        <Show when={d().item.kind === 'motif'}>
          <p class="banner warn" data-testid="motif-flag">
            Motif/workflow proposal ({d().item.motif?.generatedBy ?? 'macro reflector'}): no marker and no source_knowledge_ids, so skill_apply activates it without stamping any entry.
          </p>
        </Show>
        <Show when={d().item.problems.length}>
          <p class="banner warn">{d().item.problems.join('; ')}</p>
        </Show>
      </header>
      <div class="tabs" role="tablist">
        <For each={PANES}>
          {(p) => (
            <button role="tab" aria-selected={props.pane === p.id} classList={{ primary: props.pane === p.id }} data-testid={`pane-${p.id}`} onClick={() => props.onPane(p.id)}>
              {p.label}
            </button>
          )}
        </For>
      </div>
      <Show when={props.pane === 'rendered'}>
        <Markdown source={d().source} />
      </Show>
      <Show when={props.pane === 'source'}>
        <pre class="skill-source" data-testid="skill-source">
          {d().source}
        </pre>
      </Show>
      <Show when={props.pane === 'diff'}>
        <Show when={d().diff} fallback={<p class="muted">No active skill with this slug: the draft would be new.</p>}>
          {(parts) => (
            <pre class="skill-diff" data-testid="skill-diff">
              <For each={parts()}>
                {(part) => (
                  <For each={part.text.replace(/\n$/, '').split('\n')}>
                    {(line) => (
                      <div class={`diff-${part.kind}`}>
                        {part.kind === 'add' ? '+ ' : part.kind === 'del' ? '- ' : '  '}
                        {line}
                      </div>
                    )}
                  </For>
                )}
              </For>
            </pre>
          )}
        </Show>
      </Show>
      <Show when={props.pane === 'fields'}>
        <dl class="fields" data-testid="skill-fields">
          <For each={d().frontmatter}>
            {(f) => (
              <>
                <dt class="mono">{f.key}</dt>
                <dd class="mono pre">{f.value}</dd>
              </>
            )}
          </For>
        </dl>
      </Show>
      <Show when={props.pane === 'sources'}>
        <Show when={d().sources.length} fallback={<p class="muted">No source knowledge ids: nothing would be stamped.</p>}>
          <table data-testid="skill-sources">
            <thead>
              <tr>
                <th>Entry</th>
                <th>Lesson</th>
                <th class="num">Confidence</th>
                <th>Phases</th>
                <th class="num">Outcome signal</th>
                <th>Maturity gate</th>
              </tr>
            </thead>
            <tbody>
              <For each={d().sources}>
                {(s) => (
                  <tr>
                    <td>
                      <button class="link-button mono" onClick={() => props.onOpenEntry(s.id, s.tier)}>
                        {s.id}
                      </button>
                      <div class="muted">{s.found ? `${s.tier} · ${s.status}` : 'in no store'}</div>
                      <Show when={s.stampedSlug}>
                        <div class="muted">stamped for {s.stampedSlug}</div>
                      </Show>
                    </td>
                    <td>{s.lesson ?? '—'}</td>
                    <td class="num">{num(s.confidence)}</td>
                    <td>{s.phases.join(', ') || '—'}</td>
                    <td class="num">{num(s.outcomeSignal)}</td>
                    <td>
                      <Show when={s.maturity} fallback="—">
                        {(m) => (
                          <>
                            <span class={`badge ${m().eligible ? 'ok' : 'warn'}`}>{m().eligible ? 'eligible' : 'not eligible'}</span> <span class="muted">({m().decidedBy.replace(/_/g, ' ')})</span>
                            <div class="muted">{m().reasons.join('; ')}</div>
                          </>
                        )}
                      </Show>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </Show>
      <Show when={props.pane === 'eval'}>
        <Show when={d().evalPreview} fallback={<p class="muted">Eval previews run on drafts.</p>}>
          {(e) => <EvalTable preview={e()} />}
        </Show>
      </Show>
      <Show when={props.pane === 'logs'}>
        <h3>Changelog</h3>
        <Show when={d().changelog.length} fallback={<p class="muted">No changelog for this slug.</p>}>
          <ul>
            <For each={d().changelog}>
              {(c) => (
                <li>
                  v{c.version ?? '?'} <span class="badge">{c.action}</span> {when(c.timestamp)} — {c.reason}
                  {c.sectionsChanged.length ? ` (${c.sectionsChanged.join(', ')})` : ''}
                </li>
              )}
            </For>
          </ul>
        </Show>
        <h3>Usage and compliance</h3>
        <Show when={d().usage.length} fallback={<p class="muted">No usage recorded for this slug.</p>}>
          <table data-testid="skill-usage">
            <thead>
              <tr>
                <th>When</th>
                <th>Agent</th>
                <th>Task</th>
                <th>Verdict</th>
                <th>Notes</th>
              </tr>
            </thead>
            <tbody>
              <For each={d().usage}>
                {(u) => (
                  <tr>
                    <td class="time">{when(u.timestamp)}</td>
                    <td>{u.agent}</td>
                    <td>{u.taskId}</td>
                    <td>
                      <span class={`badge ${u.verdict === 'violated' ? 'danger' : u.verdict === 'partial' ? 'warn' : u.verdict === 'compliant' ? 'ok' : 'muted'}`}>{u.verdict}</span>
                    </td>
                    <td>{u.notes ?? ''}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </Show>
      <Show when={props.pane === 'rejected'}>
        <Show when={d().rejectedEdits.length} fallback={<p class="muted">No rejected edits for this slug.</p>}>
          <table data-testid="skill-rejected-edits">
            <thead>
              <tr>
                <th>When</th>
                <th>Operation</th>
                <th>Reason</th>
                <th class="num">Draft score</th>
                <th class="num">Incumbent score</th>
                <th class="num">Cases</th>
              </tr>
            </thead>
            <tbody>
              <For each={d().rejectedEdits}>
                {(r) => (
                  <tr classList={{ current: r.matchesThis }}>
                    <td class="time">{when(r.timestamp)}</td>
                    <td class="mono">{r.operation}</td>
                    <td>
                      {r.reason}
                      {r.matchesThis ? ' (this draft)' : ''}
                    </td>
                    <td class="num">{num(r.candidateScore)}</td>
                    <td class="num">{num(r.incumbentScore)}</td>
                    <td class="num">{r.caseCount ?? '—'}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </Show>
    </article>
  );
}
