import { plural } from '../../state/format';
import { createSignal, For, Show, type JSX } from 'solid-js';
import type { FunnelCounts, FunnelRow } from '../../../../shared/contract/receipts';
import { ACKNOWLEDGED_RULE, ANSWERED_RULE } from '../../components/ack-terms';
import { DerivedBadge } from '../../components/DerivedBadge';
import { originLabel, shortId } from './format';
import { LessonText } from './LessonText';

const OUTCOME_COLUMNS: [keyof FunnelCounts, string][] = [
  ['applied', 'applied'],
  ['ignored', 'ignored'],
  ['n_a', 'n/a'],
  ['contradicted', 'contradicted'],
  ['violated', 'violated'],
];

function Cells(props: { c: FunnelCounts; acknowledged: number | null | undefined }): JSX.Element {
  const c = () => props.c;
  return (
    <>
      <td class="num">{c().shown}</td>
      <td class="num" data-testid="funnel-answered" title={ANSWERED_RULE}>
        {c().answered}
      </td>
      <td class="num" data-testid="funnel-acknowledged" title={ACKNOWLEDGED_RULE}>
        {props.acknowledged === undefined ? '' : (props.acknowledged ?? '—')}
        <Show when={c().naStoredAsAcknowledged > 0}>
          <div class="muted" title="knowledge-application.jsonl stores an N/A acknowledgement as acknowledged">
            {c().naStoredAsAcknowledged} N/A stored as acknowledged
          </div>
        </Show>
      </td>
      <For each={OUTCOME_COLUMNS}>{([key]) => <td class="num">{c()[key] || ''}</td>}</For>
      <td class="num">{c().succeeded || ''}</td>
      <td class="num">{c().failed || ''}</td>
      <td class="num">{c().partial || ''}</td>
      <td class="num">{c().released || ''}</td>
      <td class="num">{c().open || ''}</td>
      <td class="num">{c().unacknowledged + c().noRelevant || ''}</td>
    </>
  );
}

/**
 * shown → answered → applied/ignored/n_a/contradicted/violated → succeeded/failed after shown, per
 * directive, beside the plugin's acknowledged_count (per directive, not per source).
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
      <table class="data funnel-table">
        <thead>
          <tr>
            <th>Directive</th>
            <th class="num">Shown</th>
            <th class="num" title={ANSWERED_RULE}>
              Answered
            </th>
            <th class="num" title={ACKNOWLEDGED_RULE}>
              Acknowledged
            </th>
            <For each={OUTCOME_COLUMNS}>{([, label]) => <th class="num">{label}</th>}</For>
            <th class="num">Succeeded</th>
            <th class="num">Failed</th>
            <th class="num">Partial</th>
            <th class="num" title="Gate releases: nonterminal, never application">Released</th>
            <th class="num" title="ack_required, no answer, no release">Open</th>
            <th class="num" title="unacknowledged / no_relevant: audit only">Audit only</th>
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
      <details class="muted">
        <summary>How these numbers are counted</summary>
        <ul>
          <For each={props.notes}>{(n) => <li>{n}</li>}</For>
        </ul>
      </details>
    </section>
  );
}
