import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { SkillApplyPreview, SkillDecisionResult, SkillRejectPreview, SkillRetirePreview } from '../../../shared/contract/skills';
import type { CallerContext } from '../human/confirmation';
import { previewHeader } from '../human/preview-header';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { ABSENT, checkLiveBindings } from '../human/tokens';
import { backupName, readJsonFile, writeResult } from '../human/write/backup';
import type { BackupPlace } from '../human/write/transaction';
import { readStoreSnapshot, sha256Hex, type StoreSnapshot } from '../human/write/store-snapshot';
import { applyProposal, flipStatus, planApply, rejectDraft, retireSkill, type ApplyResult, type SkillStorePaths } from './apply';
import { evaluate, loadEvalSet } from './eval';
import { matchingRejection, normalizedHash, readRejectedEdits, sha256 } from './rejected-edits';
import { toPlanView } from './skills-read';
import { activeRelPath, checkSlug, skillPaths } from './skill-paths';
import { stampTargets } from './stamp';
import { verifyApply } from './verify-apply';

const SKILL_APPLY_OP = 'skills.apply.commit';
const SKILL_REJECT_OP = 'skills.reject.commit';
const SKILL_RETIRE_OP = 'skills.retire.commit';

type Result = z.infer<typeof SkillDecisionResult>;

const fileSha = (file: string): string => {
  try {
    return sha256Hex(fs.readFileSync(file));
  } catch {
    return ABSENT;
  }
};

function slugOrThrow(slug: string): string {
  const check = checkSlug(slug);
  if (!check.ok) throw new ConsoleError('invalid_input', check.reason);
  return check.slug;
}

/** What an apply token binds: the knowledge store (swarm or link) whole, plus every other file the commit reads or writes. */
function applyBindings(stores: SkillStorePaths, slug: string, force: boolean, evaluateOn: boolean) {
  const p = skillPaths(stores.projectDir, slug);
  const [knowledge, hive] = stampTargets(stores);
  const snapshot = readStoreSnapshot((knowledge as { file: string }).file);
  const bind = {
    slug,
    force: String(force),
    evaluate: String(evaluateOn),
    proposal_sha256: fileSha(p.proposal),
    active_sha256: fileSha(p.active),
    hive_sha256: fileSha((hive as { file: string }).file),
    rejected_edits_sha256: fileSha(p.rejectedEdits),
  };
  return { snapshot, bind };
}

const liveOf = (snapshot: StoreSnapshot, bind: Record<string, string>) => ({
  target: snapshot.path,
  store: snapshot.fingerprint,
  lineShasOf: (id: string) => (snapshot.byId.get(id) ?? []).map((l) => l.sha256),
  bind,
});

const lineBindings = (snapshot: StoreSnapshot, ids: readonly string[]) => Object.fromEntries(ids.map((id) => [id, snapshot.byId.get(id)?.[0]?.sha256 ?? ABSENT]));

const applyTitle = (slug: string, force: boolean, evaluateOn: boolean) =>
  `skill apply of ${slug}${force ? ' — FORCE: overwrites an active SKILL.md without the generator marker (hand-edited)' : ''}${evaluateOn ? '' : ' — eval gate OFF'}`;

export function registerSkillDecisions(services: HumanServices): void {
  services.describe(SKILL_APPLY_OP, (p) => applyTitle(p.bind.slug ?? '?', p.bind.force === 'true', p.bind.evaluate === 'true'));
  services.describe(SKILL_REJECT_OP, (p) => `reject the skill draft ${p.bind.slug ?? '?'} (operator_reject record)`);
  services.describe(SKILL_RETIRE_OP, (p) => `retire the active skill ${p.bind.slug ?? '?'} (retired.marker)`);
}

export async function previewApply(services: HumanServices, caller: CallerContext, stores: SkillStorePaths, input: { slug: string; force: boolean; evaluate: boolean }): Promise<z.infer<typeof SkillApplyPreview>> {
  const slug = slugOrThrow(input.slug);
  const plan = planApply(stores, { slug, force: input.force, evaluate: input.evaluate });
  const { snapshot, bind } = applyBindings(stores, slug, input.force, input.evaluate);
  const minted = await services.preview(caller, { op: SKILL_APPLY_OP, target: snapshot.path, ids: plan.sourceIds, lines: lineBindings(snapshot, plan.sourceIds), store: snapshot.fingerprint, bind });
  return { ...previewHeader(services, minted, snapshot), plan: toPlanView(plan), title: applyTitle(slug, input.force, input.evaluate) };
}

/** Where a skill decision's backup goes (the protocol writes and verifies it before any change). */
function backupPlace(services: HumanServices, token12: string, op: string, slug: string, reason: string, host: string): BackupPlace {
  return {
    root: path.join(services.paths.dir, 'skill-backups'),
    name: backupName(new Date(), token12),
    signingKey: services.backupSigningKey(),
    manifest: { manifest_version: 1, op, slug, created_at: new Date().toISOString(), token12, console_version: services.consoleVersion, reason, actor: { kind: 'human-console', host, host_user: services.hostUser } },
  };
}

const base = (op: string, slug: string, token12: string): Result => ({
  state: 'refused',
  op,
  slug,
  token12,
  backup: null,
  refusal: null,
  written: [],
  removed: [],
  activated: false,
  stamped: false,
  stampNote: null,
  stores: [],
  notFound: [],
  proposalKept: true,
  evaluation: null,
  verified: true,
  messages: [],
  revertCheckAt: null,
});

function applyMessages(result: ApplyResult, projectDir: string): string[] {
  const rel = (f: string) => path.relative(projectDir, f).split(path.sep).join('/') || f;
  const out: string[] = [];
  if (result.activated) out.push(`Wrote ${result.written[0]} (status: active).`);
  for (const s of result.stores) out.push(s.lines > 0 ? `Stamped ${s.stampedIds.join(', ')} in the ${s.tier} store ${rel(s.file)} (${s.lines} line${s.lines === 1 ? '' : 's'}; every other line byte for byte).` : `Nothing stamped in the ${s.tier} store ${rel(s.file)}: ${s.note}.`);
  if (result.activated && !result.stamped) out.push(`stamped: false — ${result.stampNote}. The proposal was kept, as the plugin keeps it.`);
  else if (result.stampNote) out.push(result.stampNote);
  if (result.removed.length) out.push(`Removed ${result.removed.join(', ')}.`);
  if (result.rejectedEdit) out.push(`The eval gate refused the draft: appended a rejected-edit record (operation skill_apply) to ${result.written[0]}; nothing else was written.`);
  if (result.refusal && !result.rejectedEdit) out.push(`Refused: ${result.refusal.reason}. Nothing was written.`);
  return out;
}

export function commitApply(services: HumanServices, caller: CallerContext, stores: SkillStorePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SKILL_APPLY_OP, async (payload, token12) => {
    const slug = slugOrThrow(payload.bind.slug ?? '');
    const request = { slug, force: payload.bind.force === 'true', evaluate: payload.bind.evaluate === 'true' };
    const live = applyBindings(stores, slug, request.force, request.evaluate);
    checkLiveBindings(payload, liveOf(live.snapshot, live.bind), token12);
    const plan = planApply(stores, request);
    const out = base(SKILL_APPLY_OP, slug, token12);
    if (plan.refusal && plan.refusal.step !== 'eval') {
      await services.record(caller, { event: 'commit', op: SKILL_APPLY_OP, outcome: 'refused', token12, ids: payload.ids, reason: input.reason, binding: plan.refusal.step, message: plan.refusal.reason });
      return { ...out, refusal: plan.refusal, evaluation: plan.evaluation, messages: [`Refused: ${plan.refusal.reason}. Nothing was written.`] };
    }
    const p = skillPaths(stores.projectDir, slug);
    const [knowledge, hive] = stampTargets(stores);
    const files = { 'knowledge.jsonl': (knowledge as { file: string }).file, 'shared-learnings.jsonl': (hive as { file: string }).file, 'SKILL.md': p.active, 'proposal.md': p.proposal, 'rejected-edits.jsonl': p.rejectedEdits };
    const result = await applyProposal(stores, request, { expected: plan, lockWaitMs: services.lockWaitMs, backup: backupPlace(services, token12, SKILL_APPLY_OP, slug, input.reason, caller.host) });
    const backup = result.backup;
    if (!backup) {
      await services.record(caller, { event: 'commit', op: SKILL_APPLY_OP, outcome: 'refused', token12, ids: payload.ids, reason: input.reason, binding: result.refusal?.step, message: result.refusal?.reason });
      return { ...out, refusal: result.refusal, evaluation: result.evaluation, messages: applyMessages(result, stores.projectDir) };
    }
    const check = verifyApply(backup.dir, files, result, slug);
    const state = result.activated ? 'committed' : result.rejectedEdit ? 'eval_failed' : 'refused';
    writeResult(backup.dir, { state, at: new Date().toISOString(), written: result.written, removed: result.removed, stamped: result.stamped, stores: result.stores, verified: check.ok, problems: check.problems });
    await services.record(caller, { event: 'commit', op: SKILL_APPLY_OP, outcome: state === 'committed' ? (check.ok ? 'ok' : 'failed') : 'refused', token12, ids: payload.ids, reason: input.reason, backup: backup.name, ...(state === 'eval_failed' ? { binding: 'eval' } : {}), message: [result.refusal?.reason ?? result.stampNote, ...check.problems].filter(Boolean).join('; ') || undefined });
    const messages = applyMessages(result, stores.projectDir);
    messages.push(check.ok ? `Read back and verified; backup ${backup.name} holds every file as it was.` : `Verification found problems: ${check.problems.join('; ')}. Backup ${backup.name} holds every file as it was.`);
    const stamped = result.stores.filter((s) => s.lines > 0);
    const revertCheckAt = stamped.length ? scheduleStampCheck(services, caller, backup.dir, stamped, slug, token12) : null;
    if (revertCheckAt) messages.push(`At ${revertCheckAt} the console re-reads the stamped stores: a concurrent plugin rewrite that drops the stamp shows as a warning in the audit log.`);
    return { ...out, state, backup: backup.name, refusal: result.refusal, written: result.written, removed: result.removed, activated: result.activated, stamped: result.stamped, stampNote: result.stampNote, stores: result.stores.map((s) => ({ ...s, file: path.relative(stores.projectDir, s.file).split(path.sep).join('/') || s.file })), notFound: result.notFound, proposalKept: result.proposalKept, evaluation: result.evaluation, verified: check.ok, messages, revertCheckAt };
  });
}

/**
 * Rule 5.6.8: the plugin rewrites knowledge stores from unlocked reads, so a rewrite that read
 * the store before the commit can drop the stamp. A few seconds later the console re-reads the
 * stamped stores and records a warning (audit log and the backup's result.json) if it is gone.
 */
function scheduleStampCheck(services: HumanServices, caller: CallerContext, backupDir: string, stamped: { file: string; stampedIds: string[] }[], slug: string, token12: string): string {
  const timer = setTimeout(() => void checkStamps(services, caller, backupDir, stamped, slug, token12), services.revertCheckMs);
  timer.unref();
  return new Date(Date.now() + services.revertCheckMs).toISOString();
}

async function checkStamps(services: HumanServices, caller: CallerContext, backupDir: string, stamped: { file: string; stampedIds: string[] }[], slug: string, token12: string): Promise<string[]> {
  const lost: string[] = [];
  for (const store of stamped) {
    const snapshot = readStoreSnapshot(store.file);
    for (const id of store.stampedIds) if (!(snapshot.byId.get(id) ?? []).some((line) => line.value?.generated_skill_slug === slug)) lost.push(id);
  }
  const result = readJsonFile<Record<string, unknown>>(path.join(backupDir, 'result.json')) ?? {};
  writeResult(backupDir, { ...result, post_check: { at: new Date().toISOString(), unstamped_ids: lost } });
  if (lost.length) {
    await services.record(caller, { event: 'warning', op: SKILL_APPLY_OP, outcome: 'warning', token12, ids: lost, backup: path.basename(backupDir), message: `${lost.length} source ${lost.length === 1 ? 'entry has' : 'entries have'} lost the ${slug} stamp: a concurrent plugin rewrite reverted it. The skill stays active; apply again when the agents are idle to re-stamp.` });
  }
  return lost;
}

function rejectBindings(stores: SkillStorePaths, slug: string) {
  const p = skillPaths(stores.projectDir, slug);
  return { snapshot: readStoreSnapshot(p.rejectedEdits), bind: { slug, proposal_sha256: fileSha(p.proposal) } };
}

export async function previewReject(services: HumanServices, caller: CallerContext, stores: SkillStorePaths, input: { slug: string }): Promise<z.infer<typeof SkillRejectPreview>> {
  const slug = slugOrThrow(input.slug);
  const p = skillPaths(stores.projectDir, slug);
  const plan = planApply(stores, { slug, force: false, evaluate: false });
  if (plan.refusal && (plan.refusal.step === 'slug' || plan.refusal.step === 'paths' || plan.refusal.step === 'proposal')) throw new ConsoleError('not_found', plan.refusal.reason);
  const draft = fs.readFileSync(p.proposal, 'utf8');
  const incumbent = fs.existsSync(p.active) ? fs.readFileSync(p.active, 'utf8') : undefined;
  const { snapshot, bind } = rejectBindings(stores, slug);
  const minted = await services.preview(caller, { op: SKILL_REJECT_OP, target: snapshot.path, ids: [slug], lines: { [slug]: ABSENT }, store: snapshot.fingerprint, bind });
  return {
    ...previewHeader(services, minted, snapshot),
    slug,
    proposalPath: plan.proposalPath ?? '',
    candidateHash: sha256(draft),
    candidateNormalizedHash: normalizedHash(draft),
    evaluation: evaluate(loadEvalSet(stores.projectDir, slug), flipStatus(draft), incumbent),
    alreadyRejected: matchingRejection(readRejectedEdits(p.rejectedEdits), slug, draft) !== null,
  };
}

export function commitReject(services: HumanServices, caller: CallerContext, stores: SkillStorePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SKILL_REJECT_OP, async (payload, token12) => {
    const slug = slugOrThrow(payload.bind.slug ?? '');
    const live = rejectBindings(stores, slug);
    checkLiveBindings(payload, liveOf(live.snapshot, live.bind), token12);
    const p = skillPaths(stores.projectDir, slug);
    const result = await rejectDraft(stores, slug, input.reason, { lockWaitMs: services.lockWaitMs, backup: backupPlace(services, token12, SKILL_REJECT_OP, slug, input.reason, caller.host) });
    const backup = result.backup ?? null;
    const after = readRejectedEdits(p.rejectedEdits);
    const last = after[after.length - 1];
    const verified = result.rejected && last !== undefined && JSON.stringify(last) === JSON.stringify(result.record) && fileSha(p.proposal) === payload.bind.proposal_sha256;
    if (backup) writeResult(backup.dir, { state: result.rejected ? 'committed' : 'refused', at: new Date().toISOString(), written: result.written, verified });
    await services.record(caller, { event: 'commit', op: SKILL_REJECT_OP, outcome: result.rejected ? (verified ? 'ok' : 'failed') : 'refused', token12, ids: payload.ids, reason: input.reason, ...(backup ? { backup: backup.name } : {}), message: result.refusal?.reason });
    const messages = result.rejected
      ? [`Appended an operator_reject record to ${result.written[0]}: skill_apply will refuse this content (exact or equivalent).`, `The draft ${path.relative(stores.projectDir, p.proposal)} stays, shown as rejected.`, verified ? `Read back and verified; backup ${backup?.name}.` : `The record did not read back as written; backup ${backup?.name}.`]
      : [`Refused: ${result.refusal?.reason}. Nothing was written.`];
    return { ...base(SKILL_REJECT_OP, slug, token12), state: result.rejected ? 'committed' : 'refused', backup: backup?.name ?? null, refusal: result.refusal, written: result.written, verified, messages };
  });
}

function retireBindings(stores: SkillStorePaths, slug: string) {
  const p = skillPaths(stores.projectDir, slug);
  return { snapshot: readStoreSnapshot(p.active), bind: { slug, marker_sha256: fileSha(p.retiredMarker) } };
}

export async function previewRetire(services: HumanServices, caller: CallerContext, stores: SkillStorePaths, input: { slug: string }): Promise<z.infer<typeof SkillRetirePreview>> {
  const slug = slugOrThrow(input.slug);
  const p = skillPaths(stores.projectDir, slug);
  if (!fs.existsSync(p.active)) throw new ConsoleError('not_found', `No active skill: ${activeRelPath(slug)} does not exist`);
  const { snapshot, bind } = retireBindings(stores, slug);
  const minted = await services.preview(caller, { op: SKILL_RETIRE_OP, target: snapshot.path, ids: [slug], lines: { [slug]: ABSENT }, store: snapshot.fingerprint, bind });
  return {
    ...previewHeader(services, minted, snapshot),
    slug,
    activePath: activeRelPath(slug),
    markerPath: `${path.posix.dirname(activeRelPath(slug))}/retired.marker`,
    hasMarker: fs.existsSync(p.retiredMarker),
  };
}

export function commitRetire(services: HumanServices, caller: CallerContext, stores: SkillStorePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SKILL_RETIRE_OP, async (payload, token12) => {
    const slug = slugOrThrow(payload.bind.slug ?? '');
    const live = retireBindings(stores, slug);
    checkLiveBindings(payload, liveOf(live.snapshot, live.bind), token12);
    const result = retireSkill(stores, slug, input.reason.trim());
    const p = skillPaths(stores.projectDir, slug);
    let verified = false;
    try {
      verified = result.retired && JSON.stringify(JSON.parse(fs.readFileSync(p.retiredMarker, 'utf8'))) === JSON.stringify(result.marker);
    } catch {
      verified = false;
    }
    await services.record(caller, { event: 'commit', op: SKILL_RETIRE_OP, outcome: result.retired ? (verified ? 'ok' : 'failed') : 'refused', token12, ids: payload.ids, reason: input.reason, message: result.refusal?.reason });
    return {
      ...base(SKILL_RETIRE_OP, slug, token12),
      state: result.retired ? 'committed' : 'refused',
      refusal: result.refusal,
      written: result.written,
      verified,
      messages: result.retired ? [`Wrote ${result.written[0]} (retiredAt ${result.marker?.retiredAt}, reason ${JSON.stringify(result.marker?.reason)}); the SKILL.md stays and the plugin hides the skill.`] : [`Refused: ${result.refusal?.reason}. Nothing was written.`],
    };
  });
}
