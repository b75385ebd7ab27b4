import { For, Show, type JSX } from 'solid-js';
import type { Trace, TraceEntry, TracesPage } from '../../../../shared/contract/receipts';
import { DerivedBadge } from '../../components/DerivedBadge';
import { duration, originLabel, outcomeLabel, releaseLabel, shortId, sourceLabel } from './format';
import { LessonText } from './LessonText';
import { when } from '../../state/format';
import { Term } from '../../components/Term';

const STATUS_TONE: Record<TraceEntry['status'], string> = { answered: 'ok', released: 'warn', open: 'danger', unanswered: 'muted' };

function EntryFate(props: { entry: TraceEntry }): JSX.Element {
  const e = () => props.entry;
  return (
    <>
      <For each={e().terminals}>
        {(t) => (
          <div class="fate-line" data-testid="terminal">
            <span class={`badge ${t.outcome}`}>{outcomeLabel(t.outcome)}</span> <b>{sourceLabel(t.source)}</b>
            {t.sourceInferred ? <span class="muted"> (inferred)</span> : ''}
            {t.agent ? <span class="muted"> · {t.agent}</span> : ''} · {duration(t.msFromDisplay)} after display
            <Show when={t.reason}>
              <div class="fate-reason">{t.reason}</div>
            </Show>
            <Show when={t.evidence}>
              {(ev) => (
                <div class="muted fate-evidence">
                  evidence: {[...ev().files, ...ev().commands, ...ev().tests].join(', ') || '—'}
                  {ev().summary ? ` (${ev().summary})` : ''}
                </div>
              )}
            </Show>
            <Show when={t.origin !== 'v2'}>
              <span class="muted"> · {originLabel(t.origin)}</span>
            </Show>
          </div>
        )}
      </For>
      <For each={e().releases}>
        {(r) => (
          <div class="fate-line" data-testid="release">
            <span class="badge warn">{releaseLabel(r.kind)}</span> {duration(r.msFromDisplay)} after display{r.tool ? `, ${r.tool} let through` : ''} — <Term id="nonterminal-release">
              <i>nonterminal, not application</i>
            </Term>
          </div>
        )}
      </For>
      <For each={e().audit}>
        {(a) => (
          <div class="fate-line" data-testid="audit">
            <span class="badge muted">audit only</span> {a.kind.replace(/_/g, ' ')}
            {a.agent ? ` · ${a.agent}` : ''}
            {a.reason ? ` — ${a.reason}` : ''} <span class="muted">· {originLabel(a.origin)}</span>
          </div>
        )}
      </For>
      <Show when={!e().terminals.length && !e().releases.length && !e().audit.length}>
        <span class="muted">{e().status === 'open' ? 'no answer yet' : '—'}</span>
      </Show>
    </>
  );
}

function TraceBlock(props: { trace: Trace }): JSX.Element {
  const t = () => props.trace;
  return (
    <article class="trace" data-testid="trace" data-trace={t().traceId}>
      <header class="trace-head">
        <span class="mono" title={t().traceId}>
          {shortId(t().traceId)}
        </span>
        <span>{t().phase ?? '—'}</span>
        <Show when={t().taskId}>
          <span class="muted">task {t().taskId}</span>
        </Show>
        <span>{t().agent ?? '—'}</span>
        <span class="muted">{t().mode ?? ''}</span>
        <span class="muted">{when(t().displayedAt)}</span>
        <span class="badge muted">{originLabel(t().origin)}</span>
        <Show when={!t().displayedSetKnown}>
          <span class="badge warn" title="An answer names this trace id, but no retrieval with it was recorded">displayed set unknown</span>
        </Show>
      </header>
      <table class="data trace-entries">
        <tbody>
          <For each={t().entries}>
            {(e) => (
              <tr data-testid="trace-entry" data-entry={e.entryId} data-status={e.status}>
                <td class="mono" title={e.entryId}>
                  {e.rank !== null ? `${e.rank}. ` : ''}
                  {shortId(e.entryId)}
                  <LessonText id={e.entryId} />
                </td>
                <td>
                  <span class={`badge ${e.priority === 'critical' || e.priority === 'high' ? e.priority : 'muted'}`} data-testid="trace-priority">
                    {e.priority ?? '—'}
                  </span>
                  <div class="muted">{e.obligation?.replace('_', ' ') ?? ''}</div>
                  <Show when={e.derived}>
                    <DerivedBadge />
                  </Show>
                </td>
                <td>
                  <span class={`badge ${STATUS_TONE[e.status]}`}>{e.status}</span>
                </td>
                <td>
                  <EntryFate entry={e} />
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </article>
  );
}

interface TraceFilters {
  phase?: string | undefined;
  agent?: string | undefined;
  outcome?: string | undefined;
  entry?: string | undefined;
}

const OUTCOME_FILTERS = ['applied', 'ignored', 'n_a', 'contradicted', 'violated', 'released', 'open', 'unanswered', 'audit'];

/** Retrieval traces, newest first, with the exact displayed set and each entry's fate. */
export function TracesPanel(props: {
  page: TracesPage;
  filters: TraceFilters;
  onFilter: (changes: Record<string, string | null>) => void;
  onPage: (offset: number) => void;
  limit: number;
}): JSX.Element {
  const p = () => props.page;
  return (
    <section class="panel" data-testid="traces">
      <div class="toolbar">
        <select aria-label="Agent" value={props.filters.agent ?? ''} onChange={(e) => props.onFilter({ agent: e.currentTarget.value || null })}>
          <option value="">all agents</option>
          <For each={p().facets.agents}>{(a) => <option value={a}>{a}</option>}</For>
        </select>
        <select aria-label="Outcome" value={props.filters.outcome ?? ''} onChange={(e) => props.onFilter({ outcome: e.currentTarget.value || null })}>
          <option value="">any fate</option>
          <For each={OUTCOME_FILTERS}>{(o) => <option value={o}>{outcomeLabel(o)}</option>}</For>
        </select>
        <input aria-label="Entry id" placeholder="entry id…" value={props.filters.entry ?? ''} onChange={(e) => props.onFilter({ entry: e.currentTarget.value.trim() || null })} />
        <span class="spacer" />
        <span class="muted" data-testid="traces-count">
          {p().total === 0 ? 'no traces' : `${p().offset + 1}–${p().offset + p().traces.length} of ${p().total} traces`}
        </span>
        <button disabled={p().offset === 0} onClick={() => props.onPage(Math.max(0, p().offset - props.limit))}>
          Newer
        </button>
        <button disabled={p().offset + p().traces.length >= p().total} onClick={() => props.onPage(p().offset + props.limit)}>
          Older
        </button>
      </div>
      <For each={p().traces} fallback={<p class="muted">No retrieval trace matches.</p>}>
        {(trace) => <TraceBlock trace={trace} />}
      </For>
    </section>
  );
}
