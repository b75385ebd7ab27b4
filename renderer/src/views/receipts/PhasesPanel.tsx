import { For, Show, type JSX } from 'solid-js';
import type { PhaseSummary } from '../../../../shared/contract/receipts';
import { ANSWERED_RULE } from '../../components/ack-terms';
import { DerivedBadge } from '../../components/DerivedBadge';
import { when, plural } from '../../state/format';

const STATE_TEXT: Record<PhaseSummary['state'], string> = {
  open: 'open',
  in_grace: 'closed, in grace period',
  archive_eligible: 'closed, grace over (archive due)',
  archived: 'archived',
  no_close_record: 'not completed yet (no close record, no outcome events)',
  completed_legacy: 'completed (outcome events)',
};
const STATE_TONE: Record<PhaseSummary['state'], string> = { open: 'info', in_grace: 'ok', archive_eligible: 'warn', archived: 'muted', no_close_record: 'muted', completed_legacy: 'ok' };

/** Per-phase receipt summary with the phase-close state and grace period; a click filters the other panels. */
export function PhasesPanel(props: { phases: PhaseSummary[]; graceDays: number; selected: string | undefined; onSelect: (phase: string | null) => void }): JSX.Element {
  return (
    <section class="panel" data-testid="phases">
      <p class="muted">
        Closed phases stay live for knowledge.receipt_close_grace_days (now {plural(props.graceDays, 'day')}) after their close, then move to the archive. Click a phase to filter obligations and traces.
      </p>
      <table class="data">
        <thead>
          <tr>
            <th>Phase</th>
            <th>State</th>
            <th class="num">Traces</th>
            <th class="num">Shown</th>
            <th class="num">Ack required</th>
            <th class="num" title={ANSWERED_RULE}>
              Answered
            </th>
            <th class="num">Released</th>
            <th class="num">Open</th>
            <th>Outcomes</th>
            <th>Closed (UTC)</th>
            <th>Grace</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.phases}>
            {(p) => (
              <tr data-testid="phase-row" data-phase={p.phase} class={props.selected === p.phase ? 'selected' : ''} onClick={() => props.onSelect(props.selected === p.phase ? null : p.phase)}>
                <td>
                  <b>{p.phase}</b>
                  <div class="muted">{p.sessions.join(', ')}</div>
                </td>
                <td>
                  <span class={`badge ${STATE_TONE[p.state]}`} data-testid="phase-state">
                    {STATE_TEXT[p.state]}
                  </span>
                  <Show when={p.phaseOutcome}>
                    <div class="muted">outcome: {p.phaseOutcome}</div>
                  </Show>
                  <Show when={p.derived}>
                    <div>
                      <DerivedBadge />
                    </div>
                  </Show>
                </td>
                <td class="num">{p.traces}</td>
                <td class="num">{p.displayed}</td>
                <td class="num">{p.ackRequired}</td>
                <td class="num">{p.answered}</td>
                <td class="num">{p.released}</td>
                <td class="num">{p.open || ''}</td>
                <td>
                  {Object.entries(p.outcomes)
                    .filter(([, n]) => n > 0)
                    .map(([k, n]) => `${k === 'n_a' ? 'n/a' : k} ${n}`)
                    .join(' · ') || '—'}
                  <Show when={p.unresolved.length > 0}>
                    <div class="error">{p.unresolved.length} unresolved at close</div>
                  </Show>
                  <Show when={p.overrides.length > 0}>
                    <div class="muted" title={p.overrides.map((o) => `${o.entryId}: ${o.justification}`).join('\n')}>
                      {plural(p.overrides.length, 'override')}
                    </div>
                  </Show>
                </td>
                <td class="nowrap">{when(p.closedAt)}</td>
                <td>
                  {p.graceDays !== null ? `${p.graceDays} d` : '—'}
                  <Show when={p.archiveEligibleAfter}>
                    <div class="muted">until {when(p.archiveEligibleAfter)}</div>
                  </Show>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </section>
  );
}
