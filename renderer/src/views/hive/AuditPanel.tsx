import { For, Show, type JSX } from 'solid-js';
import type { Query } from '../../state/query';
import type { Output } from '../../../../shared/contract';
import { when, plural } from '../../state/format';

/** The console's own audit log, newest first, with its hash-chain check. */
export function AuditPanel(props: { audit: Query<Output<'audit.list'>> }): JSX.Element {
  return (
    <section class="audit-panel" data-testid="audit-panel">
      <h3>Audit log</h3>
      <Show when={props.audit.data()} fallback={<p class="muted">Loading…</p>}>
        {(log) => (
          <>
            <p class={log().chain.ok ? 'ok' : 'error'} data-testid="audit-chain">
              {log().chain.ok ? `Chain intact: ${plural(log().chain.records, 'record')}.` : `Chain broken at record ${log().chain.brokenAt}: ${log().chain.problem}`}
            </p>
            <p class="muted mono small">{log().path}</p>
            <table class="plain">
              <thead>
                <tr>
                  <th>#</th>
                  <th>When</th>
                  <th>Event</th>
                  <th>Command</th>
                  <th>Outcome</th>
                  <th>Host</th>
                  <th>Token</th>
                  <th>Ids</th>
                  <th>Detail</th>
                </tr>
              </thead>
              <tbody>
                <For each={[...log().records].reverse()}>
                  {(r) => (
                    <tr data-testid="audit-row">
                      <td>{r.seq}</td>
                      <td class="time">{when(r.at)}</td>
                      <td>{r.event}</td>
                      <td class="mono">{r.op}</td>
                      <td>{r.outcome}</td>
                      <td>{r.host}</td>
                      <td class="mono">{r.token12 ?? ''}</td>
                      <td class="mono">{r.ids.join(', ')}</td>
                      <td>{[r.binding ? `(${r.binding})` : '', r.reason ? `reason: ${r.reason}` : '', r.message ?? ''].filter(Boolean).join(' ')}</td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
}
