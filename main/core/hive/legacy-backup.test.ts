import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { HumanServices } from '../human/runner';
import { writeBackup, writeResult } from '../human/write/backup';
import { readStoreSnapshot, sha256Hex, withoutLines } from '../human/write/store-snapshot';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { fileSha, makeHiveFixture } from '../../../testing/human/hive-fixture';
import { HIVE_ROLLBACK_OP, hivePaths } from './hive-paths';
import { commitHiveRollback, previewHiveRollback } from './rollback';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

describe('a hive quarantine backup written before the one write protocol', () => {
  it('still rolls back to the original store, byte for byte', async () => {
    const f = makeHiveFixture(5, 'hive-legacy-');
    cleanups.push(f.cleanup);
    const hive = hivePaths(f.hive);
    const original = fs.readFileSync(f.store);
    const snapshot = readStoreSnapshot(f.store);
    const selected = (snapshot.byId.get('hive-0003') ?? []).concat(snapshot.byId.get('hive-0004') ?? []);
    const name = '20260101T000000000Z-0123456789ab-01234567';
    // Exactly what the hand-rolled quarantine left: the store and the selected lines (no sidecar
    // copy, no absent_files), result.json committed, the lines gone, the sidecar appended to.
    writeBackup(hive.backups, name, { 'shared-learnings.jsonl': original, 'selected.jsonl': Buffer.concat(selected.flatMap((l) => [l.raw, Buffer.from('\n')])) }, {
      manifest_version: 1,
      op: 'hive-quarantine',
      created_at: '2026-01-01T00:00:00.000Z',
      token12: '0123456789ab',
      hive_path: hive.store,
      store: snapshot.fingerprint,
      selected: selected.map((l) => ({ id: l.id, line_index: l.index, line_sha256: l.sha256 })),
      reason: 'legacy',
    }, null);
    fs.writeFileSync(f.store, withoutLines(snapshot.bytes, selected));
    fs.writeFileSync(hive.sidecar, selected.map((l) => `${JSON.stringify({ ...l.value, status: 'quarantined', quarantine_token12: '0123456789ab' })}\n`).join(''));
    writeResult(path.join(hive.backups, name), { state: 'committed', at: '2026-01-01T00:00:01.000Z' });

    const services = new HumanServices({ userDataDir: f.userData, consoleVersion: 'test', revertCheckMs: 3_600_000 });
    services.describe(HIVE_ROLLBACK_OP, () => 'rollback');
    const paths = resolveWorkspacePaths(f.project, f.hive, 'flag', false);
    // Made before signing: refused unless the person chooses it explicitly (issue 18 item 7).
    await expect(previewHiveRollback(services, caller, paths, { prefix: '0123', allowUnsigned: false })).rejects.toThrow(/is unsigned \(made before signing\) \(its manifest has no signature\); it is not rolled back without a separate, explicit choice/);
    const preview = await previewHiveRollback(services, caller, paths, { prefix: '0123', allowUnsigned: true });
    expect(preview).toMatchObject({ backup: name, method: 'exact', trust: 'unsigned_legacy', trustLabel: 'unsigned (made before signing)' });
    expect(await commitHiveRollback(services, caller, paths, { token: preview.token, reason: 'undo', confirmation: {} })).toMatchObject({ state: 'rolled_back' });
    expect(fileSha(f.store)).toBe(sha256Hex(original));
    expect(fs.readFileSync(hive.sidecar, 'utf8')).toBe('');
  });
});
