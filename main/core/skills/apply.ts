import fs from 'node:fs';
import path from 'node:path';
import { parseFrontmatter } from '../stores/frontmatter';
import { GENERATOR_MARKER } from '../stores/schemas/skills';
import { evaluate, loadEvalSet, type EvalOutcome } from './eval';
import { appendRejectedEdit, matchingRejection, readRejectedEdits, rejectedEditRecord, sha256, type RejectedEdit } from './rejected-edits';
import { activeRelPath, checkSlug, confinementProblem, proposalProblem, skillPaths } from './skill-paths';
import { CommitAbort } from '../human/runner';
import { replaceUnlockedFile } from '../human/write/atomic-write';
import type { WrittenBackup } from '../human/write/backup';
import { DEFAULT_LOCK_WAIT_MS } from '../human/write/store-lock';
import type { StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, type BackupPlace, type Snapshots } from '../human/write/transaction';
import { draftSourceIds } from './draft-source-ids';
import { holdsAnyId, stampBytes, stampTargets, unparseableLines, type StampOutcome } from './stamp';

/** Where the stores of the open workspace live (link-aware), as `WorkspacePaths` has them. */
export interface SkillStorePaths {
  projectDir: string;
  swarmDir: string;
  knowledgeDir: string;
  hiveDir: string;
}

/** The workspace the read side confines to (stores/containment.ts): project, data folder, link store. */
export const skillWorkspace = (stores: SkillStorePaths): string[] => [stores.projectDir, stores.hiveDir, stores.knowledgeDir];

export interface ApplyRequest {
  slug: string;
  /** Overwrite an active SKILL.md that lacks the generator marker. */
  force: boolean;
  /** Run the eval gate (the console's default; off reproduces the plugin's tool default). */
  evaluate: boolean;
}

type ApplyStep = 'slug' | 'paths' | 'proposal' | 'marker' | 'rejected' | 'eval' | 'changed';

export interface ApplyRefusal {
  step: ApplyStep;
  reason: string;
}

export interface ApplyPlan {
  request: ApplyRequest;
  refusal: ApplyRefusal | null;
  proposalPath: string | null;
  activePath: string | null;
  /** What sits at the active path now. */
  incumbent: 'none' | 'generated' | 'hand_edited';
  motif: boolean;
  /** Ids the plugin would stamp, from the draft's frontmatter. */
  sourceIds: string[];
  /** Stores the stamp would rewrite that hold unparseable lines: kept byte for byte, where the plugin's rewrite drops them. */
  keptUnparseable: KeptUnparseable[];
  evaluation: EvalOutcome | null;
  /** The ledger record that would refuse this content, if any. */
  rejectedBy: Record<string, unknown> | null;
  /** Hashes of what was read, so a commit can tell that nothing changed since the preview. */
  proposalHash: string | null;
  incumbentHash: string | null;
}

export interface KeptUnparseable {
  tier: StampOutcome['tier'];
  /** Project-relative path of the store. */
  file: string;
  lines: number;
}

export interface ApplyResult {
  activated: boolean;
  refusal: ApplyRefusal | null;
  /** Project-relative paths written. */
  written: string[];
  removed: string[];
  stamped: boolean;
  /** Why nothing (or not everything) was stamped. */
  stampNote: string | null;
  stores: StampOutcome[];
  /** Source ids present in no store (the plugin stamps what it finds and still says stamped). */
  notFound: string[];
  rejectedEdit: RejectedEdit | null;
  evaluation: EvalOutcome | null;
  /** The proposal stays when activation did not complete the stamping step (as in the plugin). */
  proposalKept: boolean;
}

const rel = (projectDir: string, file: string) => path.relative(projectDir, file).split(path.sep).join('/');

export const isMotifProposal = (content: string): boolean => {
  const fm = parseFrontmatter(content).frontmatter ?? {};
  return fm.status === 'proposal' || typeof fm.generated_by === 'string';
};

/** `status: draft` → `status: active` on its own frontmatter line, as the plugin flips it. */
export const flipStatus = (content: string): string => content.replace(/^status:\s*draft\s*$/m, 'status: active');

const readIfFile = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** Unparseable lines in the stores the stamp would rewrite (those holding a source id), read without a lock for the preview. */
function keptUnparseable(stores: SkillStorePaths, ids: readonly string[]): KeptUnparseable[] {
  if (ids.length === 0) return [];
  const out: KeptUnparseable[] = [];
  for (const target of stampTargets(stores)) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(target.file);
    } catch {
      continue;
    }
    const lines = holdsAnyId(bytes, ids) ? unparseableLines(bytes) : 0;
    if (lines > 0) out.push({ tier: target.tier, file: rel(stores.projectDir, target.file), lines });
  }
  return out;
}

function emptyPlan(request: ApplyRequest, refusal: ApplyRefusal): ApplyPlan {
  return { request, refusal, proposalPath: null, activePath: null, incumbent: 'none', motif: false, sourceIds: [], keptUnparseable: [], evaluation: null, rejectedBy: null, proposalHash: null, incumbentHash: null };
}

/**
 * Everything `skill_apply` would check, in the plugin's order (docs/plugin-formats.md#skill-apply), without writing:
 * slug, proposal, marker, rejection ledger, eval gate. Paths are validated before any file
 * is read, and the target must stay inside `.opencode/skills/generated/`.
 */
export function planApply(stores: SkillStorePaths, request: ApplyRequest): ApplyPlan {
  const slugCheck = checkSlug(request.slug);
  if (!slugCheck.ok) return emptyPlan(request, { step: 'slug', reason: slugCheck.reason });
  const { projectDir } = stores;
  const p = skillPaths(projectDir, slugCheck.slug);
  const pathProblem = confinementProblem(projectDir, p.active) ?? proposalProblem(projectDir, p.proposal);
  const base: ApplyPlan = { ...emptyPlan(request, { step: 'paths', reason: pathProblem ?? '' }), proposalPath: rel(projectDir, p.proposal), activePath: activeRelPath(slugCheck.slug) };
  if (pathProblem) return base;
  if (!fs.existsSync(p.proposal)) return { ...base, refusal: { step: 'proposal', reason: `proposal not found: ${rel(projectDir, p.proposal)}` } };

  const incumbentText = readIfFile(p.active);
  const incumbent = incumbentText === undefined ? 'none' : incumbentText.includes(GENERATOR_MARKER) ? 'generated' : 'hand_edited';
  const withIncumbent = { ...base, refusal: null, incumbent, incumbentHash: incumbentText === undefined ? null : sha256(incumbentText) } as ApplyPlan;
  if (incumbent === 'hand_edited' && !request.force) return { ...withIncumbent, refusal: { step: 'marker', reason: 'active SKILL.md is not generator-stamped (manual edit suspected)' } };

  const proposal = readIfFile(p.proposal);
  if (proposal === undefined) return { ...withIncumbent, refusal: { step: 'proposal', reason: `proposal not found or already activated: ${rel(projectDir, p.proposal)}` } };
  const sourceIds = draftSourceIds(proposal);
  const plan: ApplyPlan = { ...withIncumbent, motif: isMotifProposal(proposal), sourceIds, keptUnparseable: keptUnparseable(stores, sourceIds), proposalHash: sha256(proposal) };
  const rejectedBy = matchingRejection(readRejectedEdits(p.rejectedEdits), slugCheck.slug, proposal);
  if (rejectedBy) return { ...plan, rejectedBy, refusal: { step: 'rejected', reason: 'previously rejected equivalent content' } };
  if (!request.evaluate) return plan;
  const evaluation = evaluate(loadEvalSet(projectDir, slugCheck.slug), flipStatus(proposal), incumbentText);
  if (!evaluation.passed) return { ...plan, evaluation, refusal: { step: 'eval', reason: `validation_failed: ${evaluation.reason}` } };
  return { ...plan, evaluation };
}

const nothing = (refusal: ApplyRefusal | null, evaluation: EvalOutcome | null): ApplyResult => ({
  activated: false,
  refusal,
  written: [],
  removed: [],
  stamped: false,
  stampNote: null,
  stores: [],
  notFound: [],
  rejectedEdit: null,
  evaluation,
  proposalKept: true,
});

/**
 * Activates a draft with the outcome the plugin's `skill_apply` produces on the same files — the
 * active SKILL.md, the source entries stamped, the proposal removed — as ONE change on the
 * human-only write protocol: every file backed up, both store locks held (one global order), the
 * files re-verified, written by temp + rename, read back and restored on a mismatch. On an eval
 * failure, a rejected-edit record instead. When `expected` (the plan the person confirmed) is
 * given, the files must still be what was previewed.
 */
interface WriteOptions {
  now?: Date;
  /** The plan the person confirmed: the files must still be what it read. */
  expected?: Pick<ApplyPlan, 'proposalHash' | 'incumbentHash'>;
  /** How long to wait for a busy plugin lock before giving up cleanly. */
  lockWaitMs?: number;
  /** Where the verified backup of every file this write touches goes. */
  backup: BackupPlace;
}

export async function applyProposal(stores: SkillStorePaths, request: ApplyRequest, options: WriteOptions): Promise<ApplyResult & { backup: WrittenBackup | null }> {
  const { expected, lockWaitMs } = options;
  const now = options.now ?? new Date();
  const plan = planApply(stores, request);
  if (expected && plan.proposalHash !== null && (plan.proposalHash !== expected.proposalHash || plan.incumbentHash !== expected.incumbentHash)) {
    return { ...nothing({ step: 'changed', reason: 'the draft or the active skill changed since the preview; review it again' }, null), backup: null };
  }
  const { projectDir } = stores;
  if (plan.refusal) {
    if (plan.refusal.step !== 'eval' || !plan.evaluation) return { ...nothing(plan.refusal, plan.evaluation), backup: null };
    const p = skillPaths(projectDir, request.slug);
    const record = rejectedEditRecord({ slug: request.slug, operation: 'skill_apply', reason: plan.evaluation.reason, candidate: fs.readFileSync(p.proposal, 'utf8'), incumbent: readIfFile(p.active), evaluation: plan.evaluation, now });
    const outcome = await appendRejectedEdit(projectDir, record, { backup: options.backup, lockWaitMs, workspace: skillWorkspace(stores) });
    return { ...nothing(plan.refusal, plan.evaluation), written: [rel(projectDir, p.rejectedEdits)], rejectedEdit: record, backup: outcome.backup };
  }
  const p = skillPaths(projectDir, request.slug);
  // Re-check right before writing: a symlink planted since the plan must not redirect the write.
  const late = confinementProblem(projectDir, p.active);
  if (late) return { ...nothing({ step: 'paths', reason: late }, plan.evaluation), backup: null };
  const ids = draftSourceIds(fs.readFileSync(p.proposal, 'utf8'));
  // Only stores that exist are stamped (and locked): the plugin skips a missing one too.
  const targets = ids.length ? stampTargets(stores) : [];
  const present = targets.filter((t) => fs.existsSync(t.file));
  const stampOutcomes: StampOutcome[] = [];
  const textOf = (s: Snapshots, file: string) => (s.get(file) as StoreSnapshot).bytes.toString('utf8');
  const outcome = await runTransaction({
    locks: present.map((t) => t.lockDir),
    workspace: skillWorkspace(stores),
    unlockedRoots: [path.dirname(path.dirname(p.active)), path.dirname(p.proposal)],
    files: [p.active, p.proposal, ...present.map((t) => t.file)],
    backupAs: { [p.active]: 'SKILL.md', [p.proposal]: 'proposal.md', ...Object.fromEntries(present.map((t) => [t.file, t.tier === 'hive' ? 'shared-learnings.jsonl' : 'knowledge.jsonl'])) },
    backup: options.backup,
    check(s) {
      const proposal = (s.get(p.proposal) as StoreSnapshot).exists ? sha256(textOf(s, p.proposal)) : null;
      const incumbent = (s.get(p.active) as StoreSnapshot).exists ? sha256(textOf(s, p.active)) : null;
      if (proposal !== plan.proposalHash || incumbent !== plan.incumbentHash) throw new CommitAbort('store_changed', 'The draft or the active skill changed since it was checked; nothing was changed.');
    },
    plan(s) {
      const files = new Map<string, Buffer | null>([[p.active, Buffer.from(flipStatus(textOf(s, p.proposal)), 'utf8')]]);
      stampOutcomes.length = 0;
      for (const target of targets) {
        const base = { tier: target.tier, file: target.file };
        const snapshot = s.get(target.file);
        if (!snapshot?.exists) {
          stampOutcomes.push({ ...base, stampedIds: [], lines: 0, note: 'store file does not exist' });
          continue;
        }
        const stamped = stampBytes(snapshot.bytes, ids, request.slug, activeRelPath(request.slug), now);
        stampOutcomes.push({ ...base, stampedIds: stamped.stampedIds, lines: stamped.lines, note: stamped.lines ? null : 'none of the source ids is in this store' });
        if (stamped.lines) files.set(target.file, stamped.bytes);
      }
      // A motif proposal (no source ids) stays, as in the plugin: it was not stamped.
      if (ids.length) files.set(p.proposal, null);
      return files;
    },
    lockWaitMs: lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
  });
  if (outcome.state !== 'committed') throw new CommitAbort(outcome.state, outcome.messages.join(' '));
  const written = [rel(projectDir, p.active), ...stampOutcomes.filter((o) => o.lines > 0).map((o) => rel(projectDir, o.file))];
  const result: ApplyResult = { ...nothing(null, plan.evaluation), activated: true, written };
  if (ids.length === 0) return { ...result, stampNote: 'malformed_frontmatter: no source knowledge ids found', backup: outcome.backup };
  const found = new Set(stampOutcomes.flatMap((o) => o.stampedIds));
  const notFound = ids.filter((id) => !found.has(id));
  return {
    ...result,
    stamped: true,
    stores: stampOutcomes,
    notFound,
    stampNote: notFound.length ? `${notFound.length} source id(s) are in no store: ${notFound.join(', ')}` : null,
    removed: [rel(projectDir, p.proposal)],
    proposalKept: false,
    backup: outcome.backup,
  };
}

interface RejectResult {
  rejected: boolean;
  refusal: ApplyRefusal | null;
  record: RejectedEdit | null;
  written: string[];
  backup?: WrittenBackup;
}

/**
 * A person rejects a draft: one rejected-edit record (operation `operator_reject`, their
 * reason, the draft's hashes and eval scores) so the plugin refuses equivalent content. The
 * draft itself stays, shown as rejected.
 */
export async function rejectDraft(stores: SkillStorePaths, slug: string, reason: string, options: Omit<WriteOptions, 'expected'>): Promise<RejectResult> {
  const now = options.now ?? new Date();
  const refuse = (step: ApplyStep, why: string): RejectResult => ({ rejected: false, refusal: { step, reason: why }, record: null, written: [] });
  const slugCheck = checkSlug(slug);
  if (!slugCheck.ok) return refuse('slug', slugCheck.reason);
  if (!reason.trim()) return refuse('proposal', 'a reason is required');
  const { projectDir } = stores;
  const p = skillPaths(projectDir, slugCheck.slug);
  const problem = proposalProblem(projectDir, p.proposal);
  if (problem) return refuse('paths', problem);
  const proposal = readIfFile(p.proposal);
  if (proposal === undefined) return refuse('proposal', `proposal not found: ${rel(projectDir, p.proposal)}`);
  const incumbent = fs.existsSync(p.active) && !confinementProblem(projectDir, p.active) ? readIfFile(p.active) : undefined;
  const evaluation = evaluate(loadEvalSet(projectDir, slugCheck.slug), flipStatus(proposal), incumbent);
  const record = rejectedEditRecord({ slug: slugCheck.slug, operation: 'operator_reject', reason: reason.trim(), candidate: proposal, incumbent, evaluation, now });
  const outcome = await appendRejectedEdit(projectDir, record, { backup: options.backup, lockWaitMs: options.lockWaitMs, workspace: skillWorkspace(stores) });
  return { rejected: true, refusal: null, record, written: [rel(projectDir, p.rejectedEdits)], backup: outcome.backup };
}

interface RetireResult {
  retired: boolean;
  refusal: ApplyRefusal | null;
  written: string[];
  marker: { retiredAt: string; reason: string } | null;
}

/** Writes `retired.marker` (`{retiredAt, reason}`) as the plugin's `skill_retire` does; the SKILL.md stays. */
export function retireSkill(stores: SkillStorePaths, slug: string, reason: string, now: Date = new Date()): RetireResult {
  const refuse = (step: ApplyStep, why: string): RetireResult => ({ retired: false, refusal: { step, reason: why }, written: [], marker: null });
  const slugCheck = checkSlug(slug);
  if (!slugCheck.ok) return refuse('slug', slugCheck.reason);
  const { projectDir } = stores;
  const p = skillPaths(projectDir, slugCheck.slug);
  const problem = confinementProblem(projectDir, p.retiredMarker);
  if (problem) return refuse('paths', problem);
  if (!fs.existsSync(p.active)) return refuse('proposal', `no active skill: ${activeRelPath(slugCheck.slug)} does not exist`);
  if (fs.existsSync(p.retiredMarker)) return refuse('proposal', `already retired: ${rel(projectDir, p.retiredMarker)} exists`);
  const marker = { retiredAt: now.toISOString(), reason: reason.trim() || 'manual_retire' };
  replaceUnlockedFile(p.retiredMarker, Buffer.from(JSON.stringify(marker), 'utf8'));
  return { retired: true, refusal: null, written: [rel(projectDir, p.retiredMarker)], marker };
}
