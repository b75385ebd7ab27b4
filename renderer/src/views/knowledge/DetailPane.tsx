import { createSignal, For, Match, Show, Switch, type JSX } from 'solid-js';
import { freshQuery } from '../../state/query';
import { KNOWLEDGE_STORES } from './knowledge-query';
import { useRouter } from '../../state/router-context';
import { EntryActions } from '../../components/writes/EntryActions';
import { Badge, PriorityBadge, StatusBadge } from '../../components/Badge';
import { MaturityPanel } from '../../components/MaturityPanel';
import { CountersTable, FieldList, Receipts, Timeline } from './detail-sections';
import { expiryText, fixed, signed, when } from '../../state/format';
import { RevealCredentials } from './RevealCredentials';
import { Term } from '../../components/Term';
import { HistorySection } from './as-of/HistorySection';
import { LoadFailure } from '../../components/LoadFailure';

export interface DetailTarget {
  id: string;
  tier?: 'swarm' | 'hive' | 'link' | undefined;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Everything about one entry: fields, raw line, counters, verdict, timeline, receipts, skills, counterparts, and its history (every version). */
export function DetailPane(props: { target: DetailTarget; onOpen: (target: DetailTarget) => void; onClose: () => void }): JSX.Element {
  const [raw, setRaw] = createSignal(false);
  const router = useRouter();
  const detail = freshQuery(KNOWLEDGE_STORES, 'knowledge.detail', () => (props.target.tier ? { id: props.target.id, tier: props.target.tier } : { id: props.target.id }));
  return (
    <aside class="detail" aria-label="Entry detail" data-testid="detail">
      <header class="detail-head">
        <h2>Entry</h2>
        <button type="button" aria-label="Close detail" onClick={props.onClose}>
          ✕
        </button>
      </header>
      <Switch>
        <Match when={detail.data.error}>
          <Show
            when={(detail.data.error as { code?: string }).code === 'not_found'}
            fallback={<LoadFailure error={detail.data.error} retry={detail.refetch} what="Could not load this entry" />}
          >
            <p class="warn" role="alert" data-testid="detail-not-found">
              <code>{props.target.id}</code> is not in this workspace{props.target.tier ? ` (${props.target.tier} tier)` : ''}: no store of this project,
              its link or its hive holds an entry with that id. It may belong to another project, or have been removed.
            </p>
            {/* A removed entry is still in history: when it left, and why. */}
            <HistorySection id={props.target.id} />
          </Show>
        </Match>
        <Match when={detail.data()}>
          {(get) => {
            const d = get;
            return (
              <div class="detail-body">
                <p class="lesson-text" data-testid="detail-lesson">
                  {String(d().value.lesson ?? '')}
                </p>
                <RevealCredentials id={d().id} store={d().storeKey} masked={d().text} />
                <p class="badges">
                  <StatusBadge status={String(d().value.status ?? (d().collection === 'rejected' ? 'rejected' : 'unknown'))} /> <Badge>{d().tier}</Badge> <Badge tone="muted">{d().collection}</Badge>{' '}
                  <Show when={d().collection !== 'rejected'}>
                    <PriorityBadge priority={d().maturity?.priority ?? 'medium'} explicit={typeof d().value.directive_priority === 'string'} />
                  </Show>
                </p>
                <p class="mono small">
                  {d().id} · {d().file}:{d().line}
                </p>
                <EntryActions id={d().id} tier={d().tier} collection={d().collection} status={String(d().value.status ?? '')} />
                <Show when={d().tier === 'hive' && d().collection === 'active'}>
                  <button type="button" data-testid="detail-quarantine" onClick={() => router.go('hive', { select: d().id })}>
                    Quarantine…
                  </button>
                </Show>

                <h3>Lifecycle and quality</h3>
                <dl class="fields">
                  <dt>
                    <Term id="archives-in">Countdown</Term>
                  </dt>
                  <dd data-testid="detail-expiry">{expiryText(d().markers.expiry)}</dd>
                  <dt>Utility</dt>
                  <dd>{d().markers.quality.utility === null ? 'not enough showings yet' : fixed(d().markers.quality.utility)}</dd>
                  <dt>
                    <Term id="markers">Markers</Term>
                  </dt>
                  <dd>
                    <Show when={d().markers.quality.evergreen}>
                      <Term id="evergreen">
                        <Badge tone="ok">evergreen</Badge>
                      </Term>
                    </Show>
                    <Show when={d().markers.quality.lowUtility}>
                      <Term id="low-utility">
                        <Badge tone="warn">low utility</Badge>
                      </Term>
                    </Show>
                    <Show when={!d().markers.quality.evergreen && !d().markers.quality.lowUtility}>—</Show>
                  </dd>
                  <dt>Outcome signal</dt>
                  <dd>{signed(d().markers.signal)}</dd>
                  <dt>Violations, last {d().windowDays} days</dt>
                  <dd>
                    {d().markers.violationsInWindow} (up to {when(d().asOf)}; latest {when(d().markers.lastViolationAt)})
                  </dd>
                  <Show when={d().tier === 'hive'}>
                    <dt>Encounter score</dt>
                    <dd>{fixed(Number(d().value.encounter_score ?? 0))}</dd>
                  </Show>
                </dl>

                <h3>Retrieval outcomes</h3>
                <CountersTable outcomes={d().outcomes} />

                <Show when={d().maturity}>
                  {(verdict) => (
                    <>
                      <h3>Skill maturity gate</h3>
                      <MaturityPanel verdict={verdict()} />
                    </>
                  )}
                </Show>

                <h3>Confirmations</h3>
                <Timeline points={d().timeline} />

                <h3>Receipts</h3>
                <Receipts id={d().id} receipts={d().receipts} />

                <h3>Skills citing it</h3>
                <Show when={d().skills.length} fallback={<p class="muted">No skill lists it in source_knowledge_ids.</p>}>
                  <ul data-testid="citing-skills">
                    <For each={d().skills}>
                      {(s) => (
                        <li>
                          <a href={`#/skills?slug=${encodeURIComponent(s.slug)}`}>{s.slug}</a> <Badge tone="muted">{s.kind}</Badge>
                          <Show when={s.retired}>
                            <Badge tone="archived">retired</Badge>
                          </Show>
                          <Show when={s.stale}>
                            <Badge tone="warn">stale</Badge>
                          </Show>
                        </li>
                      )}
                    </For>
                  </ul>
                </Show>

                <h3>{d().tier === 'hive' ? 'Swarm counterpart' : 'Hive counterpart'}</h3>
                <Show when={d().counterparts.length} fallback={<p class="muted">No same or near-duplicate lesson in the other tier.</p>}>
                  <ul data-testid="counterparts">
                    <For each={d().counterparts}>
                      {(c) => (
                        <li>
                          <button type="button" class="link" onClick={() => props.onOpen({ id: c.id, tier: c.tier })}>
                            {c.tier} · {c.lesson}
                          </button>{' '}
                          <span class="muted">
                            {c.exact ? 'same lesson' : `similarity ${fixed(c.similarity)}`} · {c.status}
                          </span>
                        </li>
                      )}
                    </For>
                  </ul>
                </Show>

                <Show when={d().copies.length}>
                  <h3>Other copies</h3>
                  <ul>
                    <For each={d().copies}>
                      {(c) => (
                        <li class="mono small">
                          {c.tier} · {c.collection} · {c.file}:{c.line}
                        </li>
                      )}
                    </For>
                  </ul>
                </Show>

                <Show when={d().notes.length}>
                  <h3>Read notes</h3>
                  <ul>
                    <For each={d().notes}>
                      {(n) => (
                        <li>
                          <code>{n.field}</code> {n.note}
                        </li>
                      )}
                    </For>
                  </ul>
                </Show>

                <Show when={d().id}>{(id) => <HistorySection id={id()} />}</Show>

                <h3>
                  Fields{' '}
                  <button type="button" class="link" aria-pressed={raw()} onClick={() => setRaw(!raw())}>
                    {raw() ? 'show fields' : 'show raw JSON'}
                  </button>
                </h3>
                <Show when={raw()} fallback={<FieldList value={d().value} />}>
                  <pre data-testid="raw-json">{pretty(d().text)}</pre>
                </Show>
              </div>
            );
          }}
        </Match>
        <Match when={detail.data.loading}>
          <p class="muted">Loading…</p>
        </Match>
      </Switch>
    </aside>
  );
}
