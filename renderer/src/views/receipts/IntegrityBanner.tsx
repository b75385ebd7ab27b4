import { createSignal, For, Show, type JSX } from 'solid-js';
import type { FileIntegrity, Integrity } from '../../../../shared/contract/receipts';
import { bytes, shortHash, stateLabel, stateTone } from './format';
import { when, plural } from '../../state/format';

/** Where the chain breaks: line, byte offset, seq, the defect, and expected vs found. */
function BreakDetail(props: { file: FileIntegrity }): JSX.Element {
  const b = () => props.file.break;
  return (
    <Show when={b()}>
      {(brk) => (
        <dl class="fields receipt-break" data-testid={`break-${props.file.kind}`}>
          <dt>Breaks at</dt>
          <dd>
            line <b data-testid="break-line">{brk().line}</b>, byte offset <b data-testid="break-offset">{brk().byteOffset}</b>
            {brk().seq !== null ? `, seq ${brk().seq}` : ''} ({brk().byteLength} bytes)
          </dd>
          <dt>Defect</dt>
          <dd>
            <span class="badge danger">{brk().defect.replace(/_/g, ' ')}</span> {brk().message}
          </dd>
          <dt>Expected{brk().field ? ` ${brk().field}` : ''}</dt>
          <dd class="mono" data-testid="break-expected">{brk().expected}</dd>
          <dt>Found</dt>
          <dd class="mono" data-testid="break-found">{brk().found}</dd>
        </dl>
      )}
    </Show>
  );
}

function FileRow(props: { file: FileIntegrity }): JSX.Element {
  const f = () => props.file;
  return (
    <li class={`receipt-file tone-${stateTone(f().state)}`} data-testid={`integrity-${f().kind}`} data-state={f().state}>
      <div class="receipt-file-head">
        <span class={`badge ${stateTone(f().state)}`} data-testid="file-state">
          {stateLabel(f().state)}
        </span>
        <b>{f().kind}</b>
        <span class="mono muted" title={f().path}>
          {f().name}
        </span>
        <span class="muted">{bytes(f().bytes)}</span>
        <Show when={f().lastHash}>
          <span class="muted mono" title={f().lastHash ?? ''}>
            last verified {shortHash(f().lastHash)}
          </span>
        </Show>
      </div>
      <div class="receipt-file-reason" data-testid="file-reason">
        {f().reason}
      </div>
      <BreakDetail file={f()} />
      <Show when={f().tail}>
        {(tail) => (
          <p class="muted" data-testid={`tail-${f().kind}`}>
            Unterminated line {tail().line} at byte {tail().byteOffset} ({tail().byteLength} bytes, {tail().parses ? 'already a whole record' : 'not yet a whole record'}). {tail().pluginView}
          </p>
        )}
      </Show>
      <Show when={f().snapshot?.difference}>
        <p class="muted">Difference: {f().snapshot?.difference}</p>
      </Show>
      <Show when={f().uncertainty.length > 0}>
        <ul class="muted">
          <For each={f().uncertainty}>
            {(u) => (
              <li>
                seq {u.seq}: {u.kind.replace(/_/g, ' ')}
                {u.detail ? ` (${u.detail})` : ''} — {u.phase ?? 'unknown phase'}
                {u.sessionId ? `, session ${u.sessionId}` : ''}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={f().osError}>{(e) => <p class="error">{`${e().code}: ${e().message}`}</p>}</Show>
      <Show when={f().recovery}>
        {(r) => (
          <div class="receipt-recovery" data-testid={`recovery-${f().kind}`}>
            <b>What the plugin would do:</b> {r().text}
          </div>
        )}
      </Show>
    </li>
  );
}

/**
 * Integrity of the four V2 receipt files, verified on every load and change. When every file is
 * ok or absent it folds to one line (details on demand); anything else is shown in full.
 */
export function IntegrityBanner(props: { integrity: Integrity }): JSX.Element {
  const [open, setOpen] = createSignal(false);
  const tone = () => (props.integrity.verdict === 'corrupt' ? 'danger' : props.integrity.verdict === 'attention' ? 'warn' : 'ok');
  const expanded = () => props.integrity.verdict !== 'ok' || open();
  return (
    <section class={`banner ${tone()} receipt-integrity`} data-testid="receipt-integrity" data-verdict={props.integrity.verdict}>
      <div class="receipt-integrity-head">
        <b data-testid="integrity-summary">{props.integrity.summary}</b>
        <Show when={!expanded()}>
          <span class="receipt-file-chips">
            <For each={props.integrity.files}>
              {(f) => (
                <span class={`badge ${stateTone(f.state)}`} title={f.reason}>
                  {f.kind}: {stateLabel(f.state)}
                </span>
              )}
            </For>
          </span>
        </Show>
        <span class="muted">
          verified {when(props.integrity.checkedAt)} · read-only, never repaired here
          <Show when={props.integrity.verdict === 'ok'}>
            {' '}
            <button class="link-button" data-testid="integrity-details" onClick={() => setOpen(!open())}>
              {open() ? 'hide details' : 'details'}
            </button>
          </Show>
        </span>
      </div>
      <Show when={expanded()}>
        <ul class="receipt-files">
          <For each={props.integrity.files}>{(file) => <FileRow file={file} />}</For>
        </ul>
      </Show>
    </section>
  );
}

/**
 * What the panels below are built from when the journal does not verify to its end: only the
 * verified prefix, because the plugin trusts nothing after a break.
 */
export function PrefixNotice(props: { integrity: Integrity }): JSX.Element {
  const journal = () => props.integrity.files.find((f) => f.kind === 'journal');
  const text = () => {
    const j = journal();
    if (!j) return null;
    const prefix = j.records ? `the ${plural(j.records, 'verified journal record')} (seq ${j.firstSeq}–${j.lastSeq})` : 'no V2 journal record';
    if (j.state === 'corrupt' || j.state === 'unsupported_schema') {
      return `Below: ${prefix} only. Records from line ${j.break?.line ?? '?'} on are not shown — the plugin trusts nothing after the break until the ledger is repaired. Legacy logs are shown as usual.`;
    }
    if (j.state === 'unreadable') return 'Below: no V2 journal records — the journal could not be read. Legacy logs are shown as usual.';
    if (j.state === 'incomplete_tail') return `Below: ${prefix}; the last line, still unterminated, is left out until it is complete.`;
    return null;
  };
  return (
    <Show when={text()}>
      <p class="banner warn receipt-prefix" data-testid="prefix-notice">
        {text()}
      </p>
    </Show>
  );
}
