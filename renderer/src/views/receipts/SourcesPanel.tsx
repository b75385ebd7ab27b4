import { For, Show, type JSX } from 'solid-js';
import type { SourceStatus } from '../../../../shared/contract/receipts';
import { bytes } from './format';

/** Every receipt source the view draws on: the V2 files and the legacy logs, with what each holds. */
export function SourcesPanel(props: { sources: SourceStatus[] }): JSX.Element {
  return (
    <section class="panel" data-testid="sources">
      <table class="data">
        <thead>
          <tr>
            <th>Source</th>
            <th>Status</th>
            <th class="num">Records</th>
            <th class="num">Size</th>
            <th>Notes</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.sources}>
            {(s) => (
              <tr data-testid="source-row" data-source={s.id} data-present={String(s.present)}>
                <td>
                  <b>{s.label}</b>
                  <div class="muted mono">{s.path}</div>
                  <Show when={s.linkRedirected}>
                    <span class="badge info">via link</span>
                  </Show>
                </td>
                <td>
                  <span class={`badge ${s.present ? (s.defects ? 'warn' : 'ok') : 'muted'}`}>{s.present ? 'present' : 'absent'}</span>
                  <div>{s.summary}</div>
                  <Show when={s.firstDefect}>
                    {(d) => (
                      <div class="muted">
                        first defect: line {d().line}, byte {d().offset}: {d().reason}
                      </div>
                    )}
                  </Show>
                </td>
                <td class="num">{s.records}</td>
                <td class="num">{bytes(s.bytes)}</td>
                <td class="muted">
                  <For each={s.notes}>{(n) => <div>{n}</div>}</For>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </section>
  );
}
