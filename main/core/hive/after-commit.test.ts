import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { HumanServices } from '../human/runner';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { makeHiveFixture, type HiveFixture } from '../../../testing/human/hive-fixture';
import { stepObservers } from '../human/write/pause-points';
import { hiveQuarantineStatus } from './backups';
import { HIVE_QUARANTINE_OP, hivePaths } from './hive-paths';
import { commitHiveQuarantine, previewHiveQuarantine } from './quarantine';
import { checkForRevert } from './revert-check';

const cleanups: (() => void)[] = [];
afterEach(() => {
  stepObservers.clear();
  for (const cleanup of cleanups.splice(0)) cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

function setup(): { f: HiveFixture; services: HumanServices } {
  const f = makeHiveFixture(5, 'hive-after-');
  cleanups.push(f.cleanup);
  const services = new HumanServices({ userDataDir: f.userData, consoleVersion: 'test', revertCheckMs: 3_600_000 });
  services.describe(HIVE_QUARANTINE_OP, () => 'hive quarantine');
  return { f, services };
}

describe('after a hive quarantine commit', () => {
  it('warns when a concurrent plugin rewrite puts a quarantined entry back (status and audit log)', async () => {
    const { f, services } = setup();
    const paths = resolveWorkspacePaths(f.project, f.hive, 'flag', false);
    const preview = await previewHiveQuarantine(services, caller, paths, ['hive-0002']);
    const original = fs.readFileSync(f.store, 'utf8');
    const result = await commitHiveQuarantine(services, caller, paths, { token: preview.token, reason: 'x', confirmation: {} });
    // A promotion pass that read the hive before the commit rewrites it from that stale copy.
    fs.writeFileSync(f.store, original);
    const backupDir = path.join(hivePaths(f.hive).backups, result.backup as string);
    expect(await checkForRevert(services, caller, { op: HIVE_QUARANTINE_OP, store: f.store, backupDir, ids: ['hive-0002'], token12: result.token12 })).toEqual(['hive-0002']);
    const status = hiveQuarantineStatus(hivePaths(f.hive), services.backupSigningKey(), [f.project, f.hive]);
    expect(status.backups[0]?.warnings[0]).toMatch(/1 entry was back in the hive .*reverted the quarantine/);
    const audit = services.audit.read().records.at(-1);
    expect(audit).toMatchObject({ event: 'warning', outcome: 'warning', ids: ['hive-0002'] });
  });

  it('restores the original store when it does not read back as written, and says so', async () => {
    const { f, services } = setup();
    const paths = resolveWorkspacePaths(f.project, f.hive, 'flag', false);
    const original = fs.readFileSync(f.store);
    const preview = await previewHiveQuarantine(services, caller, paths, ['hive-0001']);
    stepObservers.add((step) => {
      if (step === 'after-rename') fs.writeFileSync(f.store, original);
    });
    await expect(commitHiveQuarantine(services, caller, paths, { token: preview.token, reason: 'x', confirmation: {} })).rejects.toThrow(
      /Aborted \(verify_failed_restored\): The store did not read back as written\. The original store was restored from the backup and verified\./,
    );
    expect(fs.readFileSync(f.store).equals(original)).toBe(true);
    expect(hiveQuarantineStatus(hivePaths(f.hive), services.backupSigningKey(), [f.project, f.hive]).backups[0]).toMatchObject({ state: 'verify_failed_restored' });
  });

  it('reports honestly when the store does not read back as written and cannot be restored', async () => {
    const { f, services } = setup();
    const paths = resolveWorkspacePaths(f.project, f.hive, 'flag', false);
    const preview = await previewHiveQuarantine(services, caller, paths, ['hive-0003']);
    // A writer that ignores the lock rewrites the store right after our rename.
    stepObservers.add((step) => {
      if (step === 'after-rename') fs.appendFileSync(f.store, fs.readFileSync(path.join(f.hive, 'quarantine-backups', fs.readdirSync(path.join(f.hive, 'quarantine-backups'))[0] as string, 'selected.jsonl')));
    });
    const failed = commitHiveQuarantine(services, caller, paths, { token: preview.token, reason: 'x', confirmation: {} });
    await expect(failed).rejects.toThrow(/Aborted \(verify_failed_restore_failed\): The store did not read back as written\. The restore was not attempted: another writer changed the store meanwhile/);
    const status = hiveQuarantineStatus(hivePaths(f.hive), services.backupSigningKey(), [f.project, f.hive]);
    expect(status.backups[0]).toMatchObject({ state: 'verify_failed_restore_failed', verified: true });
    expect(services.audit.read().records.map((r) => r && `${r.event}:${r.outcome}`)).toEqual(['preview:ok', 'commit:restore_failed', 'refusal:aborted']);
  });
});
