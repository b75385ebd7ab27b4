import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EvalOutcome } from './eval';
import { CommitAbort } from '../human/runner';
import { DEFAULT_LOCK_WAIT_MS } from '../human/write/store-lock';
import type { StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, type BackupPlace, type TransactionOutcome } from '../human/write/transaction';

const MAX_REJECTED_EDITS = 200;
const PREVIEW_CHARS = 800;

export const sha256 = (text: string): string => crypto.createHash('sha256').update(text).digest('hex');

/** The plugin's normalisation for "equivalent content": placeholder `generated_at`, collapsed whitespace, lower case. */
function normalizeForRejection(content: string): string {
  return content
    .replace(/^generated_at:\s*\S+\s*$/gim, 'generated_at: <generated>')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

export const normalizedHash = (content: string): string => sha256(normalizeForRejection(content));

export interface RejectedEdit {
  timestamp: string;
  slug: string;
  operation: string;
  reason: string;
  candidateHash: string;
  candidateNormalizedHash?: string;
  incumbentHash?: string;
  candidateScore: number;
  incumbentScore: number;
  evalFiles: string[];
  caseCount: number;
  candidatePreview: string;
}

/** Every parseable record, file order (unparseable lines are skipped, as the plugin skips them). */
export function readRejectedEdits(file: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line);
      if (value && typeof value === 'object' && !Array.isArray(value)) out.push(value);
    } catch {
      // a line being appended, or damaged: not a rejection
    }
  }
  return out;
}

/** The ledger record that refuses `content` for `slug` (exact or normalised hash), if any. */
export function matchingRejection(records: Record<string, unknown>[], slug: string, content: string): Record<string, unknown> | null {
  const exact = sha256(content);
  const normal = normalizedHash(content);
  return records.find((r) => r.slug === slug && ((r.candidateHash && r.candidateHash === exact) || (r.candidateNormalizedHash && r.candidateNormalizedHash === normal))) ?? null;
}

export function rejectedEditRecord(input: { slug: string; operation: string; reason: string; candidate: string; incumbent?: string; evaluation: Pick<EvalOutcome, 'candidateScore' | 'incumbentScore' | 'evalFiles' | 'caseCount'>; now: Date }): RejectedEdit {
  return {
    timestamp: input.now.toISOString(),
    slug: input.slug,
    operation: input.operation,
    reason: input.reason,
    candidateHash: sha256(input.candidate),
    candidateNormalizedHash: normalizedHash(input.candidate),
    ...(input.incumbent !== undefined ? { incumbentHash: sha256(input.incumbent) } : {}),
    candidateScore: input.evaluation.candidateScore,
    incumbentScore: input.evaluation.incumbentScore,
    evalFiles: input.evaluation.evalFiles,
    caseCount: input.evaluation.caseCount,
    candidatePreview: input.candidate.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS),
  };
}

/**
 * Appends one record, keeping the newest 200, by read + temp + rename like the plugin, on the
 * human-only write protocol (backup, lock, re-verify, read back). The plugin itself takes no lock
 * here; the console still takes the `.swarm` lock (docs/plugin-formats.md#second-process-writes,
 * rule 2: lock every write), which only serialises it against the plugin's locked writes. Every
 * kept line is kept byte for byte (the plugin drops blank lines only).
 */
export async function appendRejectedEdit(projectDir: string, record: RejectedEdit, options: { backup: BackupPlace; lockWaitMs?: number | undefined; workspace: readonly string[] }): Promise<TransactionOutcome> {
  const swarm = path.join(projectDir, '.swarm');
  const file = path.join(swarm, 'skills', 'rejected-edits.jsonl');
  const outcome = await runTransaction({
    locks: [swarm],
    workspace: options.workspace,
    files: [file],
    backup: options.backup,
    check: () => undefined,
    plan(s) {
      const prior = (s.get(file) as StoreSnapshot).bytes.toString('utf8').split(/\r?\n/).filter((line) => line.trim().length > 0);
      const kept = prior.slice(Math.max(0, prior.length - (MAX_REJECTED_EDITS - 1)));
      return new Map([[file, Buffer.from(`${[...kept, JSON.stringify(record)].join('\n')}\n`, 'utf8')]]);
    },
    lockWaitMs: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
  });
  if (outcome.state !== 'committed') throw new CommitAbort(outcome.state, outcome.messages.join(' '));
  return outcome;
}
