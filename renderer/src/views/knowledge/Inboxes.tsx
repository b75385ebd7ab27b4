import { For, Show, type JSX } from 'solid-js';
import { freshQuery } from '../../state/query';
import { FreshnessNote, recheckWhileStale } from '../../components/FreshnessNote';
import { Badge, StatusBadge } from '../../components/Badge';
import { fixed, when } from '../../state/format';
import type { DetailTarget } from './DetailPane';
import { KNOWLEDGE_STORES } from './knowledge-query';
import { LoadFailure } from '../../components/LoadFailure';

/** Triage inboxes: rejected lessons by validation layer, the unactionable queue, near-duplicate clusters. */
export function Inboxes(props: { onOpen: (target: DetailTarget) => void }): JSX.Element {
  const inboxes = freshQuery(KNOWLEDGE_STORES, 'knowledge.inboxes', () => ({}));
  recheckWhileStale(() => inboxes.data()?.duplicatesFreshness, inboxes.refetch);
  return (
    <div class="inboxes" data-testid="inboxes">
      <Show when={inboxes.data()} fallback={inboxes.data.error ? <LoadFailure error={inboxes.data.error} retry={inboxes.refetch} what="Could not load the inboxes" /> : <p class="muted">Loading…</p>}>
        {(data) => (
          <>
            <section class="panel" aria-label="Rejected lessons">
              <h3>Rejected lessons by validation layer</h3>
              <For each={data().rejected}>
                {(group) => (
                  <div class="inbox-group" data-testid={`rejected-layer-${group.layer}`}>
                    <h4>
                      Layer {group.layer} — {group.label} <Badge tone="muted">{group.items.length}</Badge>
                    </h4>
                    <Show when={group.items.length} fallback={<p class="muted">none</p>}>
                      <table class="data compact">
                        <tbody>
                          <For each={group.items}>
                            {(item) => (
                              <tr>
                                <td class="lesson-text">{item.lesson}</td>
                                <td>{item.reason}</td>
                                <td class="mono">{when(item.rejectedAt)}</td>
                                <td>
                                  <Badge tone="muted">{item.store}</Badge>
                                  <Show when={item.quarantineFingerprint}>
                                    <Badge tone="quarantined" title="fingerprint of a quarantined entry (same id)">quarantine</Badge>
                                  </Show>
                                </td>
                              </tr>
                            )}
                          </For>
                        </tbody>
                      </table>
                    </Show>
                  </div>
                )}
              </For>
            </section>

            <section class="panel" aria-label="Unactionable queue">
              <h3>
                Unactionable queue <Badge tone="muted">{data().unactionable.length}</Badge>
              </h3>
              <Show when={data().unactionable.length} fallback={<p class="muted">empty</p>}>
                <table class="data compact">
                  <tbody>
                    <For each={data().unactionable}>
                      {(item) => (
                        <tr>
                          <td class="lesson-text">{item.lesson}</td>
                          <td title={item.reason}>{item.reasonText}</td>
                          <td class="mono">{when(item.quarantinedAt)}</td>
                          <td>
                            <Show when={item.retireCandidate}>
                              <Badge tone="warn">retire candidate</Badge>
                            </Show>
                          </td>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </Show>
            </section>

            <section class="panel" aria-label="Near-duplicate clusters">
              <h3>Near-duplicate clusters</h3>
              <FreshnessNote freshness={data().duplicatesFreshness} what="Clusters" />
              <For each={data().duplicates}>
                {(group) => (
                  <div class="inbox-group">
                    <h4>
                      {group.group === 'hive' ? 'Hive' : 'Project (swarm / link)'} — word-bigram Jaccard ≥ {fixed(group.threshold)} <Badge tone="muted">{group.total}</Badge>
                    </h4>
                    <Show when={group.clusters.length} fallback={<p class="muted">none</p>}>
                      <For each={group.clusters}>
                        {(cluster) => (
                          <ul class="cluster" data-testid="duplicate-cluster">
                            <Show when={cluster.size > cluster.members.length}>
                              <li class="muted">{cluster.size} lessons in this cluster; the first {cluster.members.length} are listed</li>
                            </Show>
                            <For each={cluster.members}>
                              {(m) => (
                                <li>
                                  <button type="button" class="link" onClick={() => props.onOpen({ id: m.id, tier: m.tier })}>
                                    {m.lesson}
                                  </button>{' '}
                                  <StatusBadge status={m.status} /> <span class="muted">conf {fixed(m.confidence)} · sim {fixed(m.similarity)}</span>
                                </li>
                              )}
                            </For>
                          </ul>
                        )}
                      </For>
                    </Show>
                  </div>
                )}
              </For>
            </section>
          </>
        )}
      </Show>
    </div>
  );
}
