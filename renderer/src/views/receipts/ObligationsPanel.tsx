import { For, Show, type JSX } from 'solid-js';
import type { Obligation } from '../../../../shared/contract/receipts';
import { DerivedBadge } from '../../components/DerivedBadge';
import { duration, originLabel, outcomeLabel, releaseLabel, shortId, sourceLabel } from './format';
import { LessonText } from './LessonText';
import { neverAnswered, obligationSentences, type NeverAnswered } from './never-answered';
import { when, plural } from '../../state/format';
import { Term } from '../../components/Term';

type ObligationsData = {
  now: string;
  escapeHatches: { maxGateDenials: number; gateStalenessMs: number; source: string; configFiles: string[]; problems: string[] };
  counts: { open: number; released: number; answered: number; releasedThenAnswered: number };
  obligations: Obligation[];
};

const STATUS_TONE = { open: 'danger', released: 'warn', answered: 'ok' } as const;

function Fate(props: { o: Obligation; maxDenials: number }): JSX.Element {
  const o = () => props.o;
  return (
    <div class="obligation-fate">
      <Show when={o().status === 'open'}>
        <span>
          open for <b data-testid="open-for">{duration(o().ageMs)}</b>
          {o().stalenessDue ? ' — older than gate_staleness_ms: the next high-risk tool call would release it (staleness)' : o().stalenessDueAt ? ` — staleness release due at ${when(o().stalenessDueAt)}` : ''}
        </span>
      </Show>
      <For each={o().releases}>
        {(r) => (
          <div data-testid="release">
            <span class="badge warn">{releaseLabel(r.kind)}</span> {r.ts ? `${when(r.ts)}, ` : ''}
            {duration(r.msFromDisplay)} after display{r.tool ? `, let ${r.tool} through` : ''}
            {r.denialCount !== null ? `, denials ${r.denialCount}/${r.maxGateDenials ?? props.maxDenials}` : ''} — <Term id="nonterminal-release">
              <i>nonterminal: not an answer, never counted as application</i>
            </Term>
          </div>
        )}
      </For>
      <Show when={o().closedUnresolved}>
        <div class="error" data-testid="closed-unresolved">
          phase closed with it unresolved ({o().closedUnresolved?.replace(/_/g, ' ')})
        </div>
      </Show>
      <Show when={o().answer}>
        {(a) => (
          <div data-testid="answer">
            <span class={`badge ${a().outcome}`}>{outcomeLabel(a().outcome)}</span> by <b>{sourceLabel(a().source)}</b>
            {a().sourceInferred ? ' (inferred)' : ''} {a().agent ? `(${a().agent})` : ''} after {duration(a().msFromDisplay)}
            {o().answeredAfterRelease ? ' — answered after the gate had released it' : ''}
            <Show when={a().reason}>
              <span class="muted"> — {a().reason}</span>
            </Show>
            <span class="muted"> · {originLabel(a().origin)}</span>
          </div>
        )}
      </Show>
    </div>
  );
}

/** The operator's question answered first: critical directives shown and never answered. */
function NeverAnsweredList(props: { items: NeverAnswered[]; sentence: string }): JSX.Element {
  return (
    <div data-testid="never-answered">
      <h4>Shown and never answered (per directive)</h4>
      <p class={props.items.length ? '' : 'muted'} data-testid="never-answered-summary">
        {props.sentence}
      </p>
      <Show when={props.items.length}>
        <ul class="plain">
          <For each={props.items}>
            {(n) => (
              <li data-testid="never-answered-item" data-entry={n.entryId}>
                <a class="mono" href={`#/knowledge?open=${encodeURIComponent(n.entryId)}`} title={n.entryId}>
                  {shortId(n.entryId)}
                </a>{' '}
                <span class="badge critical">{n.priority ?? '—'}</span>
                {n.enforcement === 'enforce' ? (
                  <>
                    {' '}
                    <span class="badge danger" title="enforcement_mode: enforce (escalated)">
                      enforce
                    </span>
                  </>
                ) : null}{' '}
                shown <b data-testid="never-answered-displays">{n.displays}</b> {n.displays === 1 ? 'time' : 'times'}, {when(n.firstShown)} – {when(n.lastShown)}, never answered
                {n.gateWarnings ? `; named by ${plural(n.gateWarnings, 'gate warning')} in events.jsonl` : ''} {n.derived ? <DerivedBadge /> : null}
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}

/**
 * Displayed ack-required (critical) directives per phase: which are still open, which the gate
 * released without an answer, and which the agent answered.
 */
export function ObligationsPanel(props: { data: ObligationsData; phase: string | undefined }): JSX.Element {
  const d = () => props.data;
  const sentences = () => obligationSentences(d().counts, d().obligations);
  /** Every display derived from the released plugin's logs: the DOC-ONLY escape hatches do not apply. */
  const legacyOnly = () => d().obligations.length > 0 && d().obligations.every((o) => o.derived);
  return (
    <section class="panel" data-testid="obligations">
      <h3>Obligations{props.phase ? ` — ${props.phase}` : ''}</h3>
      <p data-testid="obligations-summary">{sentences().perDisplay}</p>
      <Show
        when={!legacyOnly()}
        fallback={
          <p class="muted" data-testid="escape-hatches">
            These displays are known only from the released plugin’s legacy logs. That plugin has no gate escape hatch: a critical directive stays pending until the agent answers it
            (max_gate_denials and gate_staleness_ms are documented for a later version). Times are UTC, ages as of {when(d().now)}.
          </p>
        }
      >
        <p class="muted" data-testid="escape-hatches">
          Gate escape hatches: max_gate_denials {d().escapeHatches.maxGateDenials}, gate_staleness_ms {d().escapeHatches.gateStalenessMs} ({duration(d().escapeHatches.gateStalenessMs)}) —{' '}
          {d().escapeHatches.source === 'config' ? `from ${d().escapeHatches.configFiles.join(', ')}` : 'documented defaults (not set in the plugin config)'}; a session reset releases too. Times are UTC, ages as of {when(d().now)}.
        </p>
      </Show>
      <For each={d().escapeHatches.problems}>{(p) => <p class="error">{p}</p>}</For>
      <Show when={d().obligations.length > 0}>
        <NeverAnsweredList items={neverAnswered(d().obligations)} sentence={sentences().perDirective} />
      </Show>
      <Show
        when={d().obligations.length > 0}
        fallback={<p class="muted">No critical (ack-required) directive was displayed{props.phase ? ` in ${props.phase}` : ''}, in the V2 journal or in the legacy logs.</p>}
      >
        <table class="data">
          <thead>
            <tr>
              <th>Status</th>
              <th>Directive</th>
              <th>Shown</th>
              <th>To</th>
              <th>What happened</th>
            </tr>
          </thead>
          <tbody>
            <For each={d().obligations}>
              {(o) => (
                <tr data-testid="obligation" data-status={o.status} data-entry={o.entryId}>
                  <td>
                    <span class={`badge ${STATUS_TONE[o.status]}`}>{o.status}</span>
                  </td>
                  <td>
                    <span class="mono" title={o.entryId}>
                      {shortId(o.entryId)}
                    </span>{' '}
                    <span class="muted">{o.priority ?? ''}</span>
                    <Show when={o.enforcement === 'enforce'}>
                      {' '}
                      <span class="badge danger">enforce</span>
                    </Show>
                    <Show when={o.derived}>
                      {' '}
                      <DerivedBadge />
                    </Show>
                    <LessonText id={o.entryId} />
                    <div class="muted mono" title={o.traceId}>
                      trace {shortId(o.traceId)}
                    </div>
                  </td>
                  <td class="nowrap">
                    {when(o.displayedAt)}
                    <div class="muted">
                      {o.phase ?? '—'}
                      {o.taskId ? ` · task ${o.taskId}` : ''}
                    </div>
                  </td>
                  <td>
                    {o.agent ?? '—'}
                    <div class="muted">{o.mode ?? ''}</div>
                    <Show when={o.denials !== null}>
                      <div class="muted">
                        denied {o.denials}/{d().escapeHatches.maxGateDenials}
                      </div>
                    </Show>
                    <Show when={o.gateWarnings > 0}>
                      <div class="muted" title="knowledge_application_gate_warn lines in .swarm/events.jsonl naming this directive (the plugin in warn mode)">
                        gate warnings {o.gateWarnings}
                      </div>
                    </Show>
                  </td>
                  <td>
                    <Fate o={o} maxDenials={d().escapeHatches.maxGateDenials} />
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
    </section>
  );
}
