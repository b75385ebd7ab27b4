import { ipcChannel } from '../../shared/contract';
import { fileSha, makeHiveFixture } from '../../testing/human/hive-fixture';
import { launchMainBundle, type StandinRecord } from './main-bundle';

type Envelope = { ok: true; value: any } | { ok: false; error: { code: string; message: string } };

const IDS = ['hive-0001', 'hive-0003'];
const BUTTON = { Cancel: 0, OK: 1 } as const;

/**
 * A human-only commit through the built main bundle's recorded IPC, on a temp hive: preview a hive
 * quarantine, commit, and let the stand-in dialog answer. Cancel must refuse and leave the store
 * byte for byte; OK must commit; the box must default to and cancel with Cancel and name the ids.
 * A main bundle whose confirmation port always says "confirmed" fails the Cancel run.
 */
export async function checkHumanCommit(outDir: string): Promise<{ problems: string[] }> {
  const problems: string[] = [];
  for (const answer of ['Cancel', 'OK'] as const) {
    const fixture = makeHiveFixture(4, 'bundle-human-');
    const run = launchMainBundle({ outDir, userDataDir: fixture.userData, args: ['--project', fixture.project, '--hive', fixture.hive], env: { STANDIN_DIALOG_RESPONSE: String(BUTTON[answer]) } });
    try {
      await run.command('ready');
      await run.waitForRecord('BrowserWindow.loaded');
      const invoke = async (op: 'hive.quarantine.preview' | 'hive.quarantine.commit', input: unknown) => (await run.command<{ value: Envelope }>('invoke', { channel: ipcChannel(op), args: [input] })).value;
      const preview = await invoke('hive.quarantine.preview', { ids: IDS });
      if (!preview.ok) {
        problems.push(`${answer}: the preview was refused: ${preview.error.message}`);
        continue;
      }
      const before = fileSha(fixture.store);
      const commit = await invoke('hive.quarantine.commit', { token: preview.value.token, reason: 'bundle check', confirmation: {} });
      const boxes = run.records.filter((r: StandinRecord) => r.kind === 'dialog.showMessageBox').map((r) => (r as unknown as { options: { buttons: string[]; defaultId: number; cancelId: number; detail: string } }).options);
      if (boxes.length !== 1) problems.push(`${answer}: the commit showed ${boxes.length} confirmation dialogs, expected 1`);
      const box = boxes[0];
      if (box) {
        const cancel = box.buttons.indexOf('Cancel');
        if (cancel < 0 || box.defaultId !== cancel || box.cancelId !== cancel) problems.push(`${answer}: the dialog's default and cancel buttons are not Cancel (${JSON.stringify({ buttons: box.buttons, defaultId: box.defaultId, cancelId: box.cancelId })})`);
        for (const id of IDS) if (!box.detail.includes(id)) problems.push(`${answer}: the dialog does not name ${id}`);
      }
      const after = fileSha(fixture.store);
      if (answer === 'Cancel') {
        if (commit.ok || commit.error.code !== 'forbidden') problems.push(`Cancel: the commit answered ${JSON.stringify(commit)}, expected forbidden`);
        if (after !== before) problems.push('Cancel: the hive store changed although the person pressed Cancel');
      } else {
        if (!commit.ok || commit.value.state !== 'committed') problems.push(`OK: the commit answered ${JSON.stringify(commit)}, expected committed`);
        if (after === before) problems.push('OK: the hive store did not change');
      }
    } finally {
      run.kill();
      await run.exited;
      fixture.cleanup();
    }
  }
  return { problems };
}
