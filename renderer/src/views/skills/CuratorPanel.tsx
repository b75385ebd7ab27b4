import { For, Show, type JSX } from 'solid-js';
import type { CuratorOverview } from '../../../../shared/contract/skills';
import { when } from '../../state/format';

const APPLIED_LABEL = { applied: 'already applied by the plugin', not_applied: 'not applied', unknown: 'cannot tell' } as const;

/** The curator's summary, findings, drift reports and insight queue. Read-only: the console never edits curator files. */
export function CuratorPanel(props: { data: CuratorOverview; onOpenEntry: (id: string, tier: string | null) => void; onOpenReceipts: (id: string) => void }): JSX.Element {
  const s = () => props.data.summary;
  return (
    <div class="curator-panel" data-testid="curator-panel">
      <Show when={s().problem}>
        <p class="banner warn">curator-summary.json: {s().problem}</p>
      </Show>
      <Show when={!s().present}>
        <p class="muted">No .swarm/curator-summary.json yet.</p>
      </Show>
      <For each={props.data.problems}>{(p) => <p class="banner warn">{p}</p>}</For>
      <Show when={s().present && !s().problem}>
        <p class="muted">
          Session {s().sessionId} · last updated {s().lastUpdated} · phases up to {s().lastPhaseCovered}. The plugin applies these recommendations itself at phase_complete; to act on an entry use the human-only commands in its detail pane.
        </p>
        <h3>Knowledge recommendations</h3>
        <table data-testid="curator-recommendations">
          <thead>
            <tr>
              <th>Action</th>
              <th>Recommendation</th>
              <th>Entry now</th>
              <th>Applied?</th>
            </tr>
          </thead>
          <tbody>
            <For each={s().recommendations}>
              {(r) => (
                <tr data-testid="curator-recommendation">
                  <td>
                    <span class="badge">{r.action.replace(/_/g, ' ')}</span>
                  </td>
                  <td>
                    <div>{r.lesson}</div>
                    <Show when={r.promotionCounts} fallback={<div class="muted">{r.reason}</div>}>
                      {(counts) => (
                        <div class="muted">
                          hive promotion run:{' '}
                          {Object.entries(counts())
                            .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`)
                            .join(', ')}
                        </div>
                      )}
                    </Show>
                  </td>
                  <td>
                    <Show when={r.entryId} fallback={<span class="muted">no entry named</span>}>
                      {(id) => (
                        <>
                          <button class="link-button mono" onClick={() => props.onOpenEntry(id(), r.entry?.tier ?? null)}>
                            {id()}
                          </button>
                          <Show when={r.entry} fallback={<div class="muted">in no store</div>}>
                            {(e) => (
                              <div class="muted">
                                {e().tier} · {e().status} · confidence {e().confidence?.toFixed(2) ?? '—'}
                                {e().hiveEligible ? ' · hive_eligible' : ''}
                                {e().tags.length ? ` · ${e().tags.join(', ')}` : ''}
                                <div>{e().lesson}</div>
                              </div>
                            )}
                          </Show>
                        </>
                      )}
                    </Show>
                  </td>
                  <td>
                    <span class={`badge ${r.applied === 'applied' ? 'ok' : r.applied === 'not_applied' ? 'warn' : 'muted'}`} data-testid="rec-applied">
                      {APPLIED_LABEL[r.applied]}
                    </span>
                    <div class="muted">{r.appliedEvidence}</div>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
        <h3>Compliance observations</h3>
        <ul data-testid="curator-compliance">
          <For each={s().compliance}>
            {(c) => (
              <li>
                <span class={`badge ${c.severity === 'warning' ? 'warn' : 'muted'}`}>{c.severity}</span> Phase {c.phase} · {c.type.replace(/_/g, ' ')} — {c.description}
              </li>
            )}
          </For>
        </ul>
        <h3>Phase digests</h3>
        <For each={s().digests}>
          {(d) => (
            <section class="digest">
              <h4>
                Phase {d.phase} · {d.tasksCompleted}/{d.tasksTotal} tasks · {d.agents.join(', ')}
              </h4>
              <p>{d.summary}</p>
              <Show when={d.keyDecisions.length}>
                <p class="muted">Decisions: {d.keyDecisions.join('; ')}</p>
              </Show>
              <Show when={d.blockersResolved.length}>
                <p class="muted">Blockers resolved: {d.blockersResolved.join('; ')}</p>
              </Show>
            </section>
          )}
        </For>
      </Show>
      <h3>Knowledge-application findings</h3>
      <Show when={props.data.findings.length} fallback={<p class="muted">No curator-findings.json under .swarm/evidence.</p>}>
        <table data-testid="curator-findings">
          <thead>
            <tr>
              <th>Phase</th>
              <th>Entry</th>
              <th>Expected</th>
              <th>Observed</th>
              <th>Verdict</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.data.findings}>
              {(f) => (
                <tr>
                  <td>{f.phase}</td>
                  <td>
                    <button class="link-button mono" onClick={() => props.onOpenEntry(f.knowledgeId, null)}>
                      {f.knowledgeId}
                    </button>
                    <div>
                      <button class="link-button" data-testid="finding-receipts" onClick={() => props.onOpenReceipts(f.knowledgeId)}>
                        receipts
                      </button>
                      {f.entryFound ? '' : <span class="muted"> (entry in no store)</span>}
                    </div>
                  </td>
                  <td>{f.expected}</td>
                  <td>
                    {f.observed}
                    <Show when={f.evidenceRefs.length}>
                      <div class="muted mono">{f.evidenceRefs.join(', ')}</div>
                    </Show>
                  </td>
                  <td>
                    <span class={`badge ${f.verdict}`}>{f.verdict}</span>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
      <h3>Drift reports</h3>
      <Show when={props.data.drift.length} fallback={<p class="muted">No drift reports.</p>}>
        <For each={props.data.drift}>
          {(d) => (
            <section class="digest" data-testid="drift-report">
              <h4>
                Phase {d.phase} · <span class={`badge ${d.alignment === 'ALIGNED' ? 'ok' : d.alignment === 'MINOR_DRIFT' ? 'warn' : 'danger'}`}>{d.alignment ?? 'unknown'}</span> drift score {d.driftScore ?? '—'}
              </h4>
              <dl class="fields">
                <For each={d.fields}>
                  {(f) => (
                    <>
                      <dt>{f.key}</dt>
                      <dd class="pre">{f.value}</dd>
                    </>
                  )}
                </For>
              </dl>
            </section>
          )}
        </For>
      </Show>
      <h3>Insight candidate queue</h3>
      <Show when={props.data.insights.length} fallback={<p class="muted">The queue is empty.</p>}>
        <ul data-testid="curator-insights">
          <For each={props.data.insights}>
            {(i) => (
              <li>
                {i.lesson}{' '}
                <span class="muted">
                  ({i.category}; {i.sourceKind} from {i.agent} on task {i.taskId}, {i.outcome}; {when(i.createdAt)})
                </span>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}
