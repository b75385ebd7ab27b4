import { For, Show, type JSX } from 'solid-js';
import type { DirectiveRow } from '../../../../shared/contract/knowledge';
import { Badge, PriorityBadge, StatusBadge } from '../../components/Badge';
import { MaturityPanel } from '../../components/MaturityPanel';
import { expiryText, fixed, when } from '../../state/format';
import { createQuery } from '../../state/query';
import { Funnel } from './Funnel';
import { Term } from '../../components/Term';

function List(props: { items: string[] }) {
  return (
    <Show when={props.items.length} fallback={<span class="muted">—</span>}>
      <ul class="plain">
        <For each={props.items}>{(item) => <li>{item}</li>}</For>
      </ul>
    </Show>
  );
}

/** One directive: its v2 fields, the outcome funnel and the skill maturity verdict. */
export function DirectiveDetail(props: { row: DirectiveRow }): JSX.Element {
  const d = () => props.row;
  // Per-display figures come from the receipts; the counters are the entry's own (the plugin's effective counters).
  const receipts = createQuery('receipts.funnel', () => ({ entry: props.row.id, limit: 1 }));
  const perDisplay = () => (receipts.data() ? (receipts.data()?.rows.find((r) => r.entryId === props.row.id)?.total ?? null) : undefined);
  return (
    <section class="detail" aria-label="Directive detail" data-testid="directive-detail">
      <p class="lesson-text" data-testid="directive-lesson">
        {d().lesson}
      </p>
      <p class="badges">
        <PriorityBadge priority={d().priority} explicit={d().priorityExplicit} /> <StatusBadge status={d().status} /> <Badge>{d().tier}</Badge>{' '}
        <Show when={d().enforcement_mode}>
          <Badge tone={d().enforcement_mode === 'enforce' ? 'danger' : 'warn'}>{d().enforcement_mode}</Badge>
        </Show>
      </p>
      <p class="mono small">
        {d().id} · <a href={`#/knowledge?open=${encodeURIComponent(d().id)}&openTier=${d().tier}&collection=all`}>open in Knowledge</a>
      </p>

      <h3>Lifecycle</h3>
      <dl class="fields">
        <dt>
          <Term id="archives-in">Countdown</Term>
        </dt>
        <dd data-testid="directive-expiry">{expiryText(d().expiry)}</dd>
        <dt>Violations, last week</dt>
        <dd data-testid="directive-violations">
          {d().violationsInWindow} (latest {when(d().lastViolationAt)})
        </dd>
        <dt>Confidence</dt>
        <dd>{fixed(d().confidence)}</dd>
      </dl>

      <h3>Displays, answers and the plugin’s counters</h3>
      <Funnel funnel={d().funnel} signal={d().signal} receipts={perDisplay()} />

      <h3>Skill maturity gate</h3>
      <MaturityPanel verdict={d().maturity} />

      <h3>Directive fields</h3>
      <dl class="fields" data-testid="directive-fields">
        <dt>triggers</dt>
        <dd>
          <List items={d().triggers} />
        </dd>
        <dt>required_actions</dt>
        <dd>
          <List items={d().required_actions} />
        </dd>
        <dt>forbidden_actions</dt>
        <dd>
          <List items={d().forbidden_actions} />
        </dd>
        <dt>applies_to_agents</dt>
        <dd>{d().applies_to_agents.join(', ') || '—'}</dd>
        <dt>applies_to_tools</dt>
        <dd>{d().applies_to_tools.join(', ') || '—'}</dd>
        <dt>verification_checks</dt>
        <dd>
          <List items={d().verification_checks} />
        </dd>
        <dt>verification_predicate</dt>
        <dd class="mono">{d().verification_predicate ?? '—'}</dd>
        <dt>directive_priority</dt>
        <dd>{d().priorityExplicit ? d().priority : 'not set (treated as medium)'}</dd>
        <dt>enforcement_mode</dt>
        <dd>{d().enforcement_mode ?? '—'}</dd>
        <dt>escalation_history</dt>
        <dd>
          <Show when={d().escalation_history.length} fallback={<span class="muted">—</span>}>
            <ul class="plain">
              <For each={d().escalation_history}>
                {(h) => (
                  <li>
                    {h.from ?? '?'} → {h.to ?? '?'} · {h.reason ?? ''} · <span class="mono">{when(h.at)}</span>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </dd>
        <dt>generated_skill_path</dt>
        <dd class="mono">{d().generated_skill_path ?? '—'}</dd>
      </dl>
    </section>
  );
}
