import { createSignal, For, Show, type JSX } from 'solid-js';
import type { FunnelCounts, FunnelRow } from '../../../../shared/contract/receipts';
import { ACKNOWLEDGED_RULE, ANSWERED_RULE } from '../../components/ack-terms';
import { DerivedBadge } from '../../components/DerivedBadge';
import { displayGroups } from '../../state/counter-figures';
import { plural } from '../../state/format';
import { glossary } from '../../state/glossary';
import { originLabel, shortId } from './format';
import { LessonText } from './LessonText';

const OUTCOME_COLUMNS: [keyof FunnelCounts, string][] = [
  ['applied', 'ap|plied'],
  ['ignored', 'ig|nored'],
  ['n_a', 'n/a'],
  ['contradicted', 'contra|dicted'],
  ['violated', 'vio|lated'],
];

/** The figures of a row that exceed the displays they would be read against, each with its one line of why (state/counter-figures.ts). */
function whys(c: FunnelCounts, acknowledged: number | null | undefined) {
  return displayGroups(c, acknowledged)
    .flatMap((g) => g.figures)
    .filter((f) => f.why !== null && WHY_FIGURES.has(f.key));
}

/** The figures this table shows that can exceed the displays. */
const WHY_FIGURES = new Set(['succeeded', 'failed', 'partial', 'acknowledged']);

/** A mark beside a figure whose why is spelled out in the line under the row (a narrow column cannot hold it). */
function WhyMark(props: { c: FunnelCounts; acknowledged: number | null | undefined; figure: string }): JSX.Element {
  const why = () => whys(props.c, props.acknowledged).find((f) => f.key === props.figure)?.why;
  return (
    <Show when={why()}>
      <sup class="why-mark" title={why()!} data-testid="why-mark">
        *
      </sup>
    </Show>
  );
}

/** Header words break only at the soft hyphen each long word carries ("Acknow|ledged"), never letter by letter; the accessible name is the whole word. */
const breakable = (text: string): string => text.replaceAll('|', '\u00AD');

const NA_NOTE = 'knowledge-application.jsonl stores an N/A acknowledgement as acknowledged';

/** Columns of a row: the directive, then every figure. */
const COLUMNS = 1 + 2 + OUTCOME_COLUMNS.length + 1 + 3 + 3 + 1;

function Cells(props: { c: FunnelCounts; acknowledged: number | null | undefined }): JSX.Element {
  const c = () => props.c;
  return (
    <>
      <td class="num">{c().shown}</td>
      <td class="num" data-testid="funnel-answered" title={ANSWERED_RULE}>
        {c().answered}
      </td>
      <For each={OUTCOME_COLUMNS}>{([key]) => <td class="num">{c()[key] || ''}</td>}</For>
      <td class="num" data-testid="funnel-unlinked">
        {c().unlinkedAnswers || ''}
      </td>
      <td class="num">{c().released || ''}</td>
      <td class="num">{c().open || ''}</td>
      <td class="num">{c().unacknowledged + c().noRelevant || ''}</td>
      <td class="num">
        {c().succeeded || ''}
        <WhyMark c={c()} acknowledged={props.acknowledged} figure="succeeded" />
      </td>
      <td class="num">
        {c().failed || ''}
        <WhyMark c={c()} acknowledged={props.acknowledged} figure="failed" />
      </td>
      <td class="num">
        {c().partial || ''}
        <WhyMark c={c()} acknowledged={props.acknowledged} figure="partial" />
      </td>
      <td class="num plugin-counter" title={ACKNOWLEDGED_RULE}>
        <span data-testid="funnel-acknowledged">{props.acknowledged === undefined ? '' : (props.acknowledged ?? '—')}</span>
        <WhyMark c={c()} acknowledged={props.acknowledged} figure="acknowledged" />
        <Show when={c().naStoredAsAcknowledged > 0}>
          <sup class="why-mark" title={NA_NOTE} data-testid="why-mark">
            †
          </sup>
        </Show>
      </td>
    </>
  );
}

/**
 * Per directive: per-display figures from the receipts (shown, answered, by outcome; answers with
 * no recorded display apart), what is not an answer, phase outcomes after a display, and — in its
 * own column group — the plugin's acknowledged_count, with one line of why wherever a figure
 * exceeds the displays (issue 19 item 1).
 */
export function FunnelPanel(props: { rows: FunnelRow[]; total: number; notes: string[]; entry: string | undefined; onEntry: (entry: string | null) => void }): JSX.Element {
  const [expanded, setExpanded] = createSignal<string | null>(null);
  return (
    <section class="panel" data-testid="funnel">
      <div class="toolbar">
        <input aria-label="Directive id" placeholder="directive id…" value={props.entry ?? ''} onChange={(e) => props.onEntry(e.currentTarget.value.trim() || null)} />
        <span class="spacer" />
        <span class="muted">{plural(props.total, 'directive')}</span>
      </div>
      <div class="funnel-scroll">
      <table class="data funnel-table">
        <thead>
          <tr class="funnel-groups">
            <th />
            <th colSpan={2 + OUTCOME_COLUMNS.length + 1} title="From the receipt logs: each display once; answered ≤ shown, and the outcome columns add up to answered">
              Per display (receipts)
            </th>
            <th colSpan={3}>Not answers</th>
            <th colSpan={3} title="Phase outcomes after a display: one per phase, not per display">
              After a display
            </th>
            <th class="plugin-counter" title="The plugin’s effective counter (docs/plugin-formats.md#effective-counters), not per display">
              Plugin’s counter
            </th>
          </tr>
          <tr>
            <th>Directive</th>
            <th class="num">Shown</th>
            <th class="num term" title={ANSWERED_RULE} aria-description={ANSWERED_RULE}>
              {breakable('An|swered')}
            </th>
            <For each={OUTCOME_COLUMNS}>
              {([, label]) => (
                <th class="num">
                  {breakable(label)}
                </th>
              )}
            </For>
            <th class="num" title="Answers that name no display the logs recorded (fresh trace ids, acknowledged events, markers with no earlier retrieval in their session): counted apart, never as answered displays">
              Without a display
            </th>
            <th class="num" title={glossary('nonterminal-release').text}>
              {breakable('Re|leased')}
            </th>
            <th class="num" title="ack_required, no answer, no release">Open</th>
            <th class="num" title="unacknowledged / no_relevant: audit only">Audit only</th>
            <th class="num">
              {breakable('Suc|ceeded')}
            </th>
            <th class="num">Failed</th>
            <th class="num">Partial</th>
            <th class="num plugin-counter term" title={ACKNOWLEDGED_RULE} aria-description={ACKNOWLEDGED_RULE}>
              {breakable('Acknow|ledged')}
            </th>
          </tr>
        </thead>
        <tbody>
          <For each={props.rows}>
            {(row) => (
              <>
                <tr data-testid="funnel-row" data-entry={row.entryId} class={expanded() === row.entryId ? 'selected' : ''} onClick={() => setExpanded(expanded() === row.entryId ? null : row.entryId)}>
                  <td>
                    <span class="mono" title={row.entryId}>
                      {shortId(row.entryId)}
                    </span>{' '}
                    <span class={`badge ${row.priority === 'critical' || row.priority === 'high' ? row.priority : 'muted'}`} data-testid="funnel-priority">
                      {row.priority ?? '—'}
                    </span>
                    <Show when={row.enforcement === 'enforce'}>
                      {' '}
                      <span class="badge danger" title="enforcement_mode: enforce (escalated)">
                        enforce
                      </span>
                    </Show>
                    <Show when={row.priorityDerived}>
                      {' '}
                      <DerivedBadge />
                    </Show>
                    <LessonText id={row.entryId} />
                  </td>
                  <Cells c={row.total} acknowledged={row.acknowledged} />
                </tr>
                <Show when={whys(row.total, row.acknowledged).length > 0 || row.total.naStoredAsAcknowledged > 0}>
                  <tr class="funnel-why" data-testid="funnel-why-row" data-entry={row.entryId}>
                    <td />
                    <td colSpan={COLUMNS - 1}>
                      <For each={whys(row.total, row.acknowledged)}>
                        {(f) => (
                          <div class="figure-why small muted" data-testid="figure-why" data-figure={f.key}>
                            * {f.label.charAt(0).toUpperCase() + f.label.slice(1)} {f.value} — {f.why}
                          </div>
                        )}
                      </For>
                      <Show when={row.total.naStoredAsAcknowledged > 0}>
                        <div class="small muted">
                          † {row.total.naStoredAsAcknowledged} N/A stored as acknowledged: {NA_NOTE}
                        </div>
                      </Show>
                    </td>
                  </tr>
                </Show>
                <Show when={expanded() === row.entryId}>
                  <For each={row.bySource}>
                    {(s) => (
                      <tr class="funnel-source" data-testid="funnel-source">
                        <td class="muted">↳ {originLabel(s.origin)}</td>
                        <Cells c={s.counts} acknowledged={undefined} />
                      </tr>
                    )}
                  </For>
                </Show>
              </>
            )}
          </For>
        </tbody>
      </table>
      </div>
      <details class="muted">
        <summary>How these numbers are counted</summary>
        <ul>
          <For each={props.notes}>{(n) => <li>{n}</li>}</For>
        </ul>
      </details>
    </section>
  );
}
