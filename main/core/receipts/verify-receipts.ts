import fs from 'node:fs';
import path from 'node:path';
import type { FileIntegrity, Integrity } from '../../../shared/contract/receipts';
import { canonicalJson, sha256Hex } from '../rules/canonical-json';
import { chainIntegrity } from './integrity-text';
import { describeLiveDifference, LiveStateBuilder } from './live-state';
import { SNAPSHOT_SCHEMA, V2_FILES } from '../rules/receipt-format';
import { nothingReadYet, type ChainFileReport } from './chain-report';
import type { HashPool } from './hash-pool';
import { OUTSIDE_WORKSPACE, verifyChainFile } from './verify-file';
import { outsideMessage, outsideTarget, sameFile } from '../stores/containment';

/**
 * Verifies the four V2 receipt files of one project `.swarm/` (never link-redirected), read-only:
 * the three hash chains, then the snapshot against a rebuild of live state from the journal.
 */

type Rec = Record<string, unknown>;

interface VerifiedReceipts {
  integrity: Integrity;
  journal: ChainFileReport;
  /** Verified journal records in order (only with `collect`). */
  journalRecords: Rec[];
  /** Verified archive records in order (only with `collect`). */
  archiveRecords: Rec[];
}

interface VerifyReceiptsOptions {
  /** Keep the parsed records (the receipts model needs them). */
  collect?: boolean;
  /** Read only files that resolve inside these folders (stores/containment.ts); absent: anywhere. */
  confineTo?: readonly string[];
  now?: () => number;
  /** Where record hashes are checked (verify-file.ts; absent: the process's pool for large files). */
  hashPool?: HashPool | null;
}

type SnapshotRead = { state: 'absent' } | { state: 'unreadable'; code: string; message: string; bytes: number | null } | { state: 'invalid'; message: string; bytes: number } | { state: 'read'; value: Rec; bytes: number };

async function readSnapshot(file: string, confineTo: readonly string[] | undefined): Promise<SnapshotRead> {
  const outside = confineTo ? outsideTarget(file, confineTo) : null;
  if (outside !== null) return { state: 'unreadable', code: OUTSIDE_WORKSPACE, message: outsideMessage(file, outside), bytes: null };
  let bytes: Buffer;
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      if (confineTo && !sameFile(await handle.stat(), file)) return { state: 'unreadable', code: OUTSIDE_WORKSPACE, message: `${file} changed while it was being opened; not read`, bytes: null };
      bytes = await handle.readFile();
    } finally {
      await handle.close().catch(() => undefined);
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return { state: 'absent' };
    return { state: 'unreadable', code: e.code ?? 'EIO', message: e.message, bytes: null };
  }
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { state: 'invalid', message: 'not a JSON object', bytes: bytes.length };
    return { state: 'read', value: value as Rec, bytes: bytes.length };
  } catch (error) {
    return { state: 'invalid', message: (error as Error).message, bytes: bytes.length };
  }
}

interface Captured {
  hash: unknown;
  gen: unknown;
  difference: string | null;
}

function snapshotIntegrity(file: string, read: SnapshotRead, journal: ChainFileReport, captured: Captured | null): FileIntegrity {
  const base: FileIntegrity = {
    kind: 'snapshot',
    name: V2_FILES.snapshot,
    path: file,
    state: 'ok',
    reason: '',
    bytes: 'bytes' in read ? read.bytes : null,
    records: 0,
    ...nothingReadYet(),
    snapshot: null,
    recovery: null,
  };
  const rebuild = {
    tool: 'automatic rebuild',
    phase: null,
    sessionId: null,
    text: 'The snapshot is never authority: the plugin discards a snapshot that disagrees with the journal and rebuilds it on its next ledger operation. Nothing to do by hand.',
  };
  const stale = (reason: string, difference: string | null, extra: Partial<FileIntegrity> = {}): FileIntegrity => ({
    ...base,
    ...extra,
    state: 'stale',
    reason: `snapshot stale — ${reason}; the plugin rebuilds it`,
    snapshot: { ...(extra.snapshot ?? { coversSeq: null, coversGen: null, journalLastSeq: journal.lastSeq, builtAt: null }), difference },
    recovery: rebuild,
  });
  if (read.state === 'absent') return { ...base, state: 'absent', reason: 'absent — no snapshot (normal: the plugin rebuilds it from the journal when needed)' };
  if (read.state === 'unreadable') return { ...base, state: 'unreadable', reason: `unreadable — ${read.code}: ${read.message}`, osError: { code: read.code, message: read.message } };
  if (read.state === 'invalid') return stale(`not valid JSON (${read.message})`, read.message);

  const snap = read.value;
  const coversSeq = Number.isInteger(snap.seq) ? (snap.seq as number) : null;
  const coversGen = Number.isInteger(snap.gen) ? (snap.gen as number) : null;
  const builtAt = typeof snap.built_at === 'string' ? snap.built_at : null;
  const info = { coversSeq, coversGen, journalLastSeq: journal.lastSeq, builtAt };
  const withInfo = { snapshot: { ...info, difference: null }, firstSeq: coversSeq, lastSeq: coversSeq, lastHash: typeof snap.hash === 'string' ? snap.hash : null, generation: coversGen };
  if (snap.schema !== SNAPSHOT_SCHEMA) {
    return { ...base, ...withInfo, state: 'unsupported_schema', reason: `unsupported snapshot schema ${JSON.stringify(snap.schema ?? null)} (this console reads ${SNAPSHOT_SCHEMA})` };
  }
  const ownStateHash = sha256Hex(canonicalJson(snap.live ?? null));
  if (snap.state_sha256 !== ownStateHash) return stale('state_sha256 does not match its own live state', `state_sha256 ${String(snap.state_sha256)} ≠ ${ownStateHash}`, withInfo);
  if (journal.state === 'absent') return stale('there is no journal to rebuild it from', 'journal absent', withInfo);
  if (journal.state === 'corrupt' || journal.state === 'unsupported_schema' || journal.state === 'unreadable') {
    return stale('cannot be confirmed while the journal does not verify', `journal is ${journal.state}`, withInfo);
  }
  if (coversSeq === null) return stale('it names no journal seq', 'seq missing', withInfo);
  if (!captured) {
    const where =
      journal.firstSeq !== null && coversSeq < journal.firstSeq
        ? `it covers seq ${coversSeq} of an earlier generation; the journal now starts at seq ${journal.firstSeq}`
        : `it covers seq ${coversSeq} but the journal's last verified record is seq ${journal.lastSeq ?? 'none'}`;
    return stale(where, where, withInfo);
  }
  if (captured.hash !== snap.hash) return stale(`seq ${coversSeq} has hash ${short(String(captured.hash))} in the journal, not ${short(String(snap.hash))}`, 'hash differs', withInfo);
  if (coversGen !== null && captured.gen !== coversGen) return stale(`seq ${coversSeq} is generation ${String(captured.gen)} in the journal, not ${coversGen}`, 'generation differs', withInfo);
  if (captured.difference) return stale(`disagrees with a rebuild at seq ${coversSeq}: ${captured.difference}`, captured.difference, withInfo);
  const behind = (journal.lastSeq ?? coversSeq) - coversSeq;
  return {
    ...base,
    ...withInfo,
    reason: `ok — matches a rebuild from the journal at seq ${coversSeq}${behind > 0 ? `; ${behind} later ${behind === 1 ? 'record' : 'records'} not folded in yet (normal)` : ''}`,
  };
}

const short = (hex: string) => (hex.length > 16 ? `${hex.slice(0, 12)}…` : hex);

function verdictOf(files: readonly FileIntegrity[]): Integrity['verdict'] {
  if (files.some((f) => f.state === 'corrupt' || f.state === 'unsupported_schema' || f.state === 'unreadable')) return 'corrupt';
  if (files.some((f) => f.state !== 'ok' && f.state !== 'absent')) return 'attention';
  return 'ok';
}

function summaryOf(verdict: Integrity['verdict'], files: readonly FileIntegrity[]): string {
  if (files.every((f) => f.state === 'absent')) return 'No V2 receipt files: this project uses the legacy receipt logs only (normal for the released plugin).';
  const named = (states: string[]) =>
    files
      .filter((f) => states.includes(f.state))
      .map((f) => `${f.kind} ${f.state.replace(/_/g, ' ')}`)
      .join(', ');
  if (verdict === 'corrupt') return `Receipt ledger fails closed: ${named(['corrupt', 'unsupported_schema', 'unreadable'])}.`;
  if (verdict === 'attention') return `Receipt files verify, with attention needed: ${named(['incomplete_tail', 'stale', 'legacy_unverifiable'])}.`;
  return 'Every V2 receipt file verifies.';
}

export async function verifyReceipts(swarmDir: string, options: VerifyReceiptsOptions = {}): Promise<VerifiedReceipts> {
  const now = options.now ?? Date.now;
  const file = (kind: keyof typeof V2_FILES) => path.join(swarmDir, V2_FILES[kind]);
  const confineTo = options.confineTo;
  const hashing = options.hashPool !== undefined ? { hashPool: options.hashPool } : {};
  const snapshotRead = await readSnapshot(file('snapshot'), confineTo);
  const snap = snapshotRead.state === 'read' ? snapshotRead.value : null;
  const targetSeq = snap && Number.isInteger(snap.seq) ? (snap.seq as number) : null;
  const builtAtMs = snap && typeof snap.built_at === 'string' && Number.isFinite(Date.parse(snap.built_at)) ? Date.parse(snap.built_at) : null;

  const journalRecords: Rec[] = [];
  const archiveRecords: Rec[] = [];
  const live = targetSeq !== null ? new LiveStateBuilder() : null;
  let captured: Captured | null = null;
  const needRecords = options.collect || live !== null;
  const journal = await verifyChainFile('journal', file('journal'), {
    confineTo,
    ...hashing,
    onRecord: needRecords
      ? (record) => {
          if (options.collect) journalRecords.push(record);
          if (live) {
            live.add(record);
            if (record.seq === targetSeq) {
              const at = builtAtMs ?? Date.parse(String(record.ts));
              captured = { hash: record.hash, gen: record.gen, difference: describeLiveDifference(snap?.live, live.state(at)) };
            }
          }
        }
      : undefined,
  });
  const archive = await verifyChainFile('archive', file('archive'), { confineTo, ...hashing, ...(options.collect ? { onRecord: (record: Rec) => archiveRecords.push(record) } : {}) });
  const quarantine = await verifyChainFile('quarantine', file('quarantine'), { confineTo, ...hashing });

  const files = [chainIntegrity(journal), snapshotIntegrity(file('snapshot'), snapshotRead, journal, captured), chainIntegrity(archive), chainIntegrity(quarantine)];
  const verdict = verdictOf(files);
  return {
    integrity: { checkedAt: new Date(now()).toISOString(), swarmDir, verdict, summary: summaryOf(verdict, files), files },
    journal,
    journalRecords,
    archiveRecords,
  };
}
