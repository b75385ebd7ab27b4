import { ConsoleError } from '../../../shared/contract';
import { curatorOverview, type EntryLookup } from '../curator/curator-read';
import { appendDismissal, DENIAL_KEY, dismissalsFile, readDismissedKeys } from '../curator/review-dismissals';
import { reviewQueue } from '../curator/review-queue';
import { outcomeSignal } from '../rules/counters';
import { distinctPhases, entryConfidence, entryLesson, entryStatus, str } from '../rules/entry-fields';
import type { KnowledgeModel } from '../knowledge/knowledge-model';
import { maturityVerdict } from '../rules/maturity-gate';
import type { HumanServices } from '../human/runner';
import { planApply } from '../skills/apply';
import { commitApply, commitReject, commitRetire, previewApply, previewReject, previewRetire, registerSkillDecisions } from '../skills/decisions';
import { listImproverProposals, readQuotas } from '../skills/improver';
import { listCandidates, listSkills, skillDetail, toPlanView, type SourceView } from '../skills/skills-read';
import type { Workspace } from '../workspace/workspace';
import { confinementOf } from '../stores/containment';
import type { StoreScope } from '../stores/view-reads';
import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';
import { knowledgeOf } from './knowledge-handlers';

type SkillCalls =
  | 'skills.overview'
  | 'skills.detail'
  | 'skills.planApply'
  | 'curator.overview'
  | 'review.queue'
  | 'review.dismiss'
  | 'skills.apply.preview'
  | 'skills.apply.commit'
  | 'skills.reject.preview'
  | 'skills.reject.commit'
  | 'skills.retire.preview'
  | 'skills.retire.commit';

const storesOf = (workspace: Workspace) => {
  const { projectDir, swarmDir, knowledgeDir, hiveDir } = workspace.paths;
  return { projectDir, swarmDir, knowledgeDir, hiveDir };
};

/** What the skill and curator views may read: the project, confined like every store read of the workspace. */
export const scopeOf = (workspace: Workspace): StoreScope => ({ projectDir: workspace.paths.projectDir, confineTo: confinementOf(workspace.paths) });

function sourceLookup(model: KnowledgeModel) {
  return (id: string): SourceView => {
    const entry = model.find(id);
    if (!entry) return { id, found: false, tier: null, status: null, lesson: null, confidence: null, phases: [], outcomeSignal: null, maturity: null, stampedSlug: null };
    const outcomes = model.outcomes(entry);
    const verdict = entry.collection === 'rejected' ? null : maturityVerdict(entry.value, outcomes, model.thresholds);
    return {
      id,
      found: true,
      tier: entry.tier,
      status: `${entryStatus(entry.value)}${entry.collection === 'active' ? '' : ` (${entry.collection})`}`,
      lesson: entryLesson(entry.value),
      confidence: entryConfidence(entry.value),
      phases: distinctPhases(entry.value),
      outcomeSignal: outcomeSignal(outcomes),
      maturity: verdict ? { eligible: verdict.eligible, decidedBy: verdict.decidedBy, reasons: verdict.reasons } : null,
      stampedSlug: str(entry.value.generated_skill_slug) ?? null,
    };
  };
}

function entryLookup(model: KnowledgeModel): EntryLookup {
  return (id) => {
    const entry = model.find(id);
    if (!entry) return null;
    return { tier: entry.tier, collection: entry.collection, value: { ...entry.value }, eventKinds: model.events(id).map((e) => e.kind) };
  };
}

/**
 * Handlers of the skills and curator area (shared/contract/skills.ts). The reads are plain
 * queries; every decision (apply, reject, retire) is a human-only preview + commit through the
 * human-only machinery (token, the person's confirmation, audit).
 */
export function createSkillHandlers(ctx: CoreContext, human: HumanServices): Pick<CallHandlers, SkillCalls> {
  registerSkillDecisions(human);
  const workspace = () => ctx.workspaces.current;
  const stores = () => storesOf(workspace());
  const model = () => knowledgeOf(workspace()).model();
  const dismissals = () => dismissalsFile(ctx.options.userDataDir, workspace().paths.projectDir, workspace().paths.hiveDir);
  const fullQueue = async () => {
    const m = await model();
    const scope = scopeOf(workspace());
    return reviewQueue({ skills: await listSkills(scope), curator: await curatorOverview(scope, entryLookup(m)), entries: m.inputs.entries, decisions: ['approve', 'reject'] });
  };
  return {
    'skills.overview': async () => {
      const scope = scopeOf(workspace());
      return { skills: await listSkills(scope), candidates: await listCandidates(scope), improver: { proposals: await listImproverProposals(scope), quotas: await readQuotas(scope) } };
    },
    'skills.detail': async ({ slug, kind }) => {
      const detail = await skillDetail(storesOf(workspace()), scopeOf(workspace()), slug, kind, sourceLookup(await model()));
      if (!detail) throw new ConsoleError('not_found', `No ${kind === 'proposal' ? 'draft or motif proposal' : 'generated skill'} with the slug ${JSON.stringify(slug.slice(0, 80))}`);
      return detail;
    },
    'skills.planApply': ({ slug, force, evaluate }) => toPlanView(planApply(storesOf(workspace()), { slug, force, evaluate })),
    'curator.overview': async () => curatorOverview(scopeOf(workspace()), entryLookup(await model())),
    'review.queue': async () => {
      const full = await fullQueue();
      const dismissedKeys = readDismissedKeys(dismissals());
      const items = full.items.filter((i) => !dismissedKeys.has(i.key));
      const counts = Object.fromEntries(Object.keys(full.counts).map((kind) => [kind, items.filter((i) => i.kind === kind).length]));
      return { items, counts, dismissed: full.items.length - items.length, dismissedKeys: [...dismissedKeys] };
    },
    'review.dismiss': async ({ key, reason }, caller) => {
      if (!DENIAL_KEY.test(key)) {
        const item = (await fullQueue()).items.find((i) => i.key === key);
        if (!item) throw new ConsoleError('not_found', 'That item is no longer in the review queue (it changed or was decided). Nothing was recorded.');
        if (item.actions.length) throw new ConsoleError('invalid_input', `This ${item.kind.replace(/_/g, ' ')} has a human-only decision: approve or reject it through the confirmation instead. Nothing was recorded.`);
      }
      const record = appendDismissal(dismissals(), key, reason);
      await human.record(caller, { event: 'commit', op: 'review.dismiss', outcome: 'ok', ids: [key], reason, message: 'reviewed — dismissed (console user data only; no store written)' });
      return { key: record.key, at: record.at, reason: record.reason };
    },
    'skills.apply.preview': (input, caller) => previewApply(human, caller, stores(), input),
    'skills.apply.commit': (input, caller) => commitApply(human, caller, stores(), input),
    'skills.reject.preview': (input, caller) => previewReject(human, caller, stores(), input),
    'skills.reject.commit': (input, caller) => commitReject(human, caller, stores(), input),
    'skills.retire.preview': (input, caller) => previewRetire(human, caller, stores(), input),
    'skills.retire.commit': (input, caller) => commitRetire(human, caller, stores(), input),
  };
}
