import { For, Show, type JSX } from 'solid-js';
import type { EffectiveOutcomes, EntryDetail } from '../../../../shared/contract/knowledge';
import { ACKNOWLEDGED_RULE } from '../../components/ack-terms';
import { Badge } from '../../components/Badge';
import { count, when } from '../../state/format';

/** Effective counters, with the frozen pre-v2 counters kept apart and labelled. */
export function CountersTable(props: { outcomes: EffectiveOutcomes }): JSX.Element {
  const o = () => props.outcomes;
  const rows = (): [string, number, string?][] => [
    ['shown', o().shown_count],
    ['acknowledged', o().acknowledged_count, ACKNOWLEDGED_RULE],
    ['applied', o().applied_explicit_count],
    ['ignored', o().ignored_count],
    ['n/a (events only)', o().n_a_count],
    ['contradicted', o().contradicted_count],
    ['violated', o().violated_count],
    ['succeeded after shown', o().succeeded_after_shown_count],
    ['failed after shown', o().failed_after_shown_count],
    ['partial after shown (events only)', o().partial_after_shown_count],
  ];
  return (
    <div data-testid="counters">
      <table class="data compact">
        <tbody>
          <For each={rows()}>
            {([label, value, rule]) => (
              <tr>
                <th scope="row" title={rule}>
                  {label}
                </th>
                <td class="num">{count(value)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <p class="muted small">
        {o().fromRollup
          ? 'Effective counters: the counter baseline and knowledge-events.jsonl (and the legacy application log) override the stored values; succeeded/failed after shown are added to them.'
          : 'No event history for this entry: the counters stored in the entry are used as they are.'}
      </p>
      <table class="data compact legacy" aria-label="Legacy frozen counters">
        <caption>Legacy counters — frozen, no longer updated by the plugin</caption>
        <tbody>
          <tr>
            <th scope="row">applied_count (legacy)</th>
            <td class="num">{o().legacy.applied_count}</td>
          </tr>
          <tr>
            <th scope="row">succeeded_after_count (legacy)</th>
            <td class="num">{o().legacy.succeeded_after_count}</td>
          </tr>
          <tr>
            <th scope="row">failed_after_count (legacy)</th>
            <td class="num">{o().legacy.failed_after_count}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function Timeline(props: { points: EntryDetail['timeline'] }): JSX.Element {
  return (
    <Show when={props.points.length} fallback={<p class="muted">No confirmations yet.</p>}>
      <ol class="timeline">
        <For each={props.points}>
          {(p) => (
            <li>
              <span class="mono">{when(p.at)}</span> {p.phase !== null ? `Phase ${p.phase}` : ''} {p.project ? `· ${p.project}` : ''}
            </li>
          )}
        </For>
      </ol>
    </Show>
  );
}

export function Receipts(props: { id: string; receipts: EntryDetail['receipts'] }): JSX.Element {
  return (
    <div data-testid="receipts">
      <p>
        {props.receipts.total} event{props.receipts.total === 1 ? '' : 's'} name this entry{' '}
        <For each={Object.entries(props.receipts.byKind)}>
          {([kind, n]) => (
            <Badge tone={kind.replace('legacy:', '')}>
              {kind} {n}
            </Badge>
          )}
        </For>{' '}
        <a href={`#/receipts?entry=${encodeURIComponent(props.id)}`}>open in Receipts</a>
      </p>
      <table class="data compact">
        <thead>
          <tr>
            <th>When (UTC)</th>
            <th>Event</th>
            <th>Agent</th>
            <th>Trace</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.receipts.recent}>
            {(e) => (
              <tr>
                <td class="mono">{when(e.at)}</td>
                <td>{e.kind}</td>
                <td>{e.agent ?? '—'}</td>
                <td class="mono" title={`${e.file}:${e.line}`}>
                  <Show when={e.traceId} fallback="—">
                    <a href={`#/receipts?trace=${encodeURIComponent(e.traceId ?? '')}`}>{(e.traceId ?? '').slice(0, 8)}</a>
                  </Show>
                </td>
                <td>{e.reason ?? ''}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}

/** Every field of the entry as the plugin reads it, each value as text. */
export function FieldList(props: { value: Record<string, unknown> }): JSX.Element {
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  return (
    <dl class="fields" data-testid="fields">
      <For each={Object.entries(props.value)}>
        {([key, value]) => (
          <>
            <dt>{key}</dt>
            <dd classList={{ mono: typeof value !== 'string' }}>{show(value)}</dd>
          </>
        )}
      </For>
    </dl>
  );
}
