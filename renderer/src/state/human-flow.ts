import { batch, createSignal } from 'solid-js';
import type { ConsoleApi, Output } from '../../../shared/contract';
import { operatorMessage } from './error-text';

type PreviewOp =
  | 'hive.quarantine.preview'
  | 'hive.rollback.preview'
  | 'swarm.quarantine.preview'
  | 'swarm.archive.preview'
  | 'swarm.restore.preview'
  | 'swarm.promote.preview'
  | 'skills.apply.preview'
  | 'skills.reject.preview'
  | 'skills.retire.preview'
  | 'history.restore.preview';
type CommitOp =
  | 'hive.quarantine.commit'
  | 'hive.rollback.commit'
  | 'swarm.quarantine.commit'
  | 'swarm.archive.commit'
  | 'swarm.restore.commit'
  | 'swarm.promote.commit'
  | 'skills.apply.commit'
  | 'skills.reject.commit'
  | 'skills.retire.commit'
  | 'history.restore.commit';

/**
 * One human-only action in the UI: preview → (ask the terminal for a code) → commit with the
 * person's reason and confirmation → result. Holds the state as signals; views only read them and
 * call these functions.
 */
export function createHumanFlow<P extends PreviewOp, C extends CommitOp>(api: ConsoleApi, previewOp: P, commitOp: C, onDone: () => void = () => undefined) {
  const [preview, setPreview] = createSignal<Output<P> | null>(null);
  const [result, setResult] = createSignal<Output<C> | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [codeRequested, setCodeRequested] = createSignal(false);

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      // Only the core's own words reach the page; a framework error is replaced by a plain sentence.
      setError(operatorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return {
    preview,
    result,
    error,
    busy,
    codeRequested,
    start: (input: Parameters<ConsoleApi['call']>[1] & object) =>
      attempt(async () => {
        setResult(null);
        setCodeRequested(false);
        setPreview(null);
        setPreview((await api.call(previewOp, input as never)) as never);
      }),
    requestCode: () =>
      attempt(async () => {
        const current = preview();
        if (!current) return;
        await api.call('human.beginConfirmation', { token: current.token });
        setCodeRequested(true);
      }),
    commit: (reason: string, code: string | null) =>
      attempt(async () => {
        const current = preview();
        if (!current) return;
        let done: Output<C>;
        try {
          done = (await api.call(commitOp, { token: current.token, reason, confirmation: code === null ? {} : { code } } as never)) as Output<C>;
        } finally {
          onDone();
        }
        // One step from the spent form to the result: views never see a result beside a live
        // form, and nothing reads the preview after it is gone (views render it keyed).
        batch(() => {
          setPreview(null);
          setCodeRequested(false);
          setResult(() => done);
        });
      }),
    cancel: () =>
      batch(() => {
        setPreview(null);
        setError(null);
        setCodeRequested(false);
      }),
    clearResult: () => setResult(null),
  };
}

export type HumanFlow = ReturnType<typeof createHumanFlow<'hive.quarantine.preview' | 'hive.rollback.preview', 'hive.quarantine.commit' | 'hive.rollback.commit'>>;
