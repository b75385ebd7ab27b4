import fs from 'node:fs';
import path from 'node:path';
import { diffLines } from 'diff';
import type { z } from 'zod';
import type { SkillCandidate, SkillDetail, SkillItem, UsageSummary } from '../../../shared/contract/skills';
import { parseFrontmatter } from '../stores/frontmatter';
import { GENERATOR_MARKER } from '../stores/schemas/skills';
import { flipStatus, isMotifProposal, planApply, type ApplyPlan, type SkillStorePaths } from './apply';
import { draftSourceIds } from './draft-source-ids';
import { evaluate, loadEvalSet } from './eval';
import { matchingRejection } from './rejected-edits';
import { asRecord, list, n, s, slugOfSkillPath, usageVerdict } from './skill-logs';
import { checkSlug, isValidSlug, skillPaths } from './skill-paths';
import { defectLines, projectStoreFiles, readViewDocument, readViewRecords, readViewText, type StoreScope, type ViewRead } from '../stores/view-reads';

type Usage = z.infer<typeof UsageSummary>;
type Candidate = z.infer<typeof SkillCandidate>;
export type SourceView = SkillDetail['sources'][number];

const rel = (projectDir: string, file: string) => path.relative(projectDir, file).split(path.sep).join('/');
const usageFile = (projectDir: string) => path.join(projectDir, '.swarm', 'skill-usage.jsonl');
const readUsage = (scope: StoreScope): Promise<ViewRead> => readViewRecords('skill-usage', usageFile(scope.projectDir), scope);
/** The rejected-edits ledger as the views read it (the apply path reads it again under the lock). */
const readLedger = async (scope: StoreScope): Promise<Record<string, unknown>[]> =>
  (await readViewRecords('skill-rejected-edits', path.join(scope.projectDir, '.swarm', 'skills', 'rejected-edits.jsonl'), scope)).records.map((r) => r.value);
const heading = (body: string): string | null => /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? null;

function usageBySlug(usage: ViewRead): Map<string, Usage> {
  const out = new Map<string, Usage>();
  for (const { value } of usage.records) {
    if (value.type !== undefined) continue;
    const slug = slugOfSkillPath(value.skillPath);
    if (!slug) continue;
    const u = out.get(slug) ?? { total: 0, compliant: 0, partial: 0, violated: 0, notChecked: 0, other: 0 };
    u.total++;
    const verdict = usageVerdict(value.complianceVerdict);
    if (verdict === 'compliant') u.compliant++;
    else if (verdict === 'partial') u.partial++;
    else if (verdict === 'violated') u.violated++;
    else if (verdict === 'not_checked') u.notChecked++;
    else u.other++;
    out.set(slug, u);
  }
  return out;
}

function baseItem(slug: string, kind: SkillItem['kind'], file: string, text: string, projectDir: string): SkillItem {
  const parsed = parseFrontmatter(text);
  const fm = parsed.frontmatter ?? {};
  const motif = kind === 'motif';
  return {
    slug,
    kind,
    path: rel(projectDir, file),
    title: s(motif ? fm.title : fm.description) ?? heading(parsed.body) ?? slug,
    status: s(fm.status),
    confidence: n(fm.confidence),
    version: n(fm.version),
    generatedAt: s(fm.generated_at),
    skillType: s(fm.skill_type),
    origin: s(fm.skill_origin) ?? s(fm.generated_by),
    sourceIds: draftSourceIds(text),
    hasMarker: null,
    hasActive: false,
    rejected: null,
    retired: null,
    staleReason: null,
    evalCases: 0,
    usage: null,
    motif: motif ? { generatedBy: s(fm.generated_by), appliesToAgents: list(fm.applies_to_agents).map(String), sourceTaskIds: (Array.isArray(fm.source_task_ids) ? fm.source_task_ids : []).map(String), verificationPredicate: s(fm.verification_predicate) } : null,
    problems: [...parsed.problems, ...(parsed.frontmatter ? [] : ['no frontmatter block'])],
  };
}

const evalCount = (projectDir: string, slug: string) => (isValidSlug(slug) ? loadEvalSet(projectDir, slug).cases.length : 0);

/** Drafts and motif proposals (`.swarm/skills/proposals/`), then generated skills by state. */
export async function listSkills(scope: StoreScope): Promise<SkillItem[]> {
  const { projectDir } = scope;
  const items: SkillItem[] = [];
  const ledger = await readLedger(scope);
  for (const file of projectStoreFiles('skill-proposals', projectDir)) {
    const read = await readViewText(file.path, scope);
    if (!read.present && !read.problem) continue;
    const slug = path.basename(file.path, '.md');
    const text = read.text ?? '';
    const item = baseItem(slug, isMotifProposal(text) ? 'motif' : 'draft', file.path, text, projectDir);
    if (read.problem) item.problems = [read.problem];
    const p = skillPaths(projectDir, slug);
    item.hasActive = isValidSlug(slug) && fs.existsSync(p.active);
    const match = read.present ? matchingRejection(ledger, slug, text) : null;
    item.rejected = match ? { timestamp: s(match.timestamp), operation: s(match.operation), reason: s(match.reason) } : null;
    item.evalCases = evalCount(projectDir, slug);
    if (!isValidSlug(slug)) item.problems.push('file name is not a valid skill slug: skill_apply cannot address it');
    items.push(item);
  }
  const usage = usageBySlug(await readUsage(scope));
  for (const file of projectStoreFiles('skills-generated', projectDir)) {
    const slug = path.basename(path.dirname(file.path));
    const p = skillPaths(projectDir, slug);
    const read = await readViewText(p.active, scope);
    if (!read.present && !read.problem) continue;
    const text = read.text ?? '';
    const retired = await readViewDocument('skill-retired-markers', p.retiredMarker, scope);
    const stale = await readViewText(p.staleMarker, scope);
    const kind = retired.present ? 'retired' : stale.present || stale.problem ? 'stale' : 'active';
    const item = baseItem(slug, kind, p.active, text, projectDir);
    if (read.problem) item.problems = [read.problem];
    item.hasMarker = text.includes(GENERATOR_MARKER);
    if (retired.present) {
      const m = asRecord(retired.value);
      item.retired = { retiredAt: s(m.retiredAt), reason: s(m.reason) };
      if (retired.problem) item.problems.push(`retired.marker ${retired.problem}`);
    }
    item.staleReason = stale.present ? stale.text.trim() || 'stale' : stale.problem ? 'stale' : null;
    if (stale.problem) item.problems.push(`stale.marker ${stale.problem}`);
    item.usage = usage.get(slug) ?? null;
    item.evalCases = evalCount(projectDir, slug);
    if (fs.lstatSync(p.activeDir).isSymbolicLink()) item.problems.push('the skill folder is a symlink');
    items.push(item);
  }
  return items;
}

/** External-skill candidates: the upstream shape is not specified, so the usual names are read leniently. */
export async function listCandidates(scope: StoreScope): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const file of projectStoreFiles('skill-candidates', scope.projectDir)) {
    const name = path.basename(file.path);
    const read = await readViewDocument('skill-candidates', file.path, scope);
    const r = asRecord(read.value);
    const flags = (Array.isArray(r.risk_flags) ? r.risk_flags : Array.isArray(r.riskFlags) ? r.riskFlags : []).map((f) => (typeof f === 'string' ? f : (s(asRecord(f).flag) ?? s(asRecord(f).code) ?? JSON.stringify(f))));
    out.push({
      file: rel(scope.projectDir, file.path),
      id: s(r.id) ?? name.slice(0, -5),
      name: s(r.name) ?? s(r.skill_name) ?? s(r.title),
      state: s(r.lifecycle_state) ?? s(r.state) ?? s(r.status),
      verdict: s(r.verdict) ?? s(r.scan_verdict) ?? s(r.review_verdict),
      riskFlags: flags,
      source: s(r.source_url) ?? s(r.source) ?? s(r.origin),
      json: read.value === null ? '' : JSON.stringify(read.value, null, 2).slice(0, 20_000),
      problem: read.problem,
    });
  }
  return out;
}

interface SourceLookup {
  (id: string): SourceView;
}

const MAX_USAGE = 100;

function frontmatterFields(text: string): { key: string; value: string }[] {
  const fm = parseFrontmatter(text).frontmatter ?? {};
  return Object.entries(fm).map(([key, value]) => ({ key, value: Array.isArray(value) ? value.map(String).join('\n') : String(value ?? '') }));
}

export function toPlanView(plan: ApplyPlan) {
  return {
    slug: plan.request.slug,
    force: plan.request.force,
    evaluate: plan.request.evaluate,
    refusal: plan.refusal,
    proposalPath: plan.proposalPath,
    activePath: plan.activePath,
    incumbent: plan.incumbent,
    motif: plan.motif,
    sourceIds: plan.sourceIds,
    keptUnparseable: plan.keptUnparseable.map((k) => ({ ...k, note: k.lines === 1 ? `1 unparseable line is kept as it is in ${k.file}; the plugin would drop it` : `${k.lines} unparseable lines are kept as they are in ${k.file}; the plugin would drop them` })),
    evaluation: plan.evaluation,
  };
}

/** One draft/motif (`proposal`) or generated skill (`active`) with everything a reviewer needs. */
export async function skillDetail(stores: SkillStorePaths, scope: StoreScope, slugInput: string, kind: 'proposal' | 'active', lookup: SourceLookup): Promise<SkillDetail | null> {
  const check = checkSlug(slugInput);
  if (!check.ok) return null;
  const slug = check.slug;
  const { projectDir } = scope;
  const item = (await listSkills(scope)).find((i) => i.slug === slug && (kind === 'proposal' ? i.kind === 'draft' || i.kind === 'motif' : i.kind !== 'draft' && i.kind !== 'motif'));
  if (!item) return null;
  const p = skillPaths(projectDir, slug);
  const source = (await readViewText(kind === 'proposal' ? p.proposal : p.active, scope)).text ?? '';
  const activeSource = kind === 'proposal' ? (await readViewText(p.active, scope)).text : null;
  const diff = activeSource === null ? null : diffLines(activeSource, source).map((part) => ({ kind: part.added ? ('add' as const) : part.removed ? ('del' as const) : ('same' as const), text: part.value }));
  const ledger = await readLedger(scope);
  const matching = kind === 'proposal' ? matchingRejection(ledger, slug, source) : null;
  const usageRead = await readUsage(scope);
  const changelogRead = await readViewRecords('skill-changelogs', p.changelog, scope);
  // A defective log line is shown as a problem of the skill, never thrown (the Stores view lists it too).
  item.problems.push(...defectLines(projectDir, usageFile(projectDir), usageRead), ...defectLines(projectDir, p.changelog, changelogRead));
  const usage = usageRead.records
    .filter(({ value }) => value.type === undefined && slugOfSkillPath(value.skillPath) === slug)
    .map(({ value }) => ({ timestamp: s(value.timestamp), agent: s(value.agentName), taskId: s(value.taskID), verdict: usageVerdict(value.complianceVerdict), notes: s(value.reviewerNotes), skillVersion: n(value.skillVersion) }))
    .sort((a, b) => String(b.timestamp).localeCompare(String(a.timestamp)))
    .slice(0, MAX_USAGE);
  return {
    item,
    source,
    frontmatter: frontmatterFields(source),
    activeSource,
    diff,
    sources: item.sourceIds.map(lookup),
    changelog: changelogRead.records.map(({ value }) => ({ version: n(value.version), timestamp: s(value.timestamp), action: s(value.action), reason: s(value.reason), sectionsChanged: list(value.sectionsChanged) })),
    usage,
    rejectedEdits: ledger
      .filter((r) => r.slug === slug)
      .map((r) => ({ timestamp: s(r.timestamp), operation: s(r.operation), reason: s(r.reason), candidateScore: n(r.candidateScore), incumbentScore: n(r.incumbentScore), caseCount: n(r.caseCount), matchesThis: r === matching }))
      .reverse(),
    evalPreview: kind === 'proposal' ? evaluate(loadEvalSet(projectDir, slug), flipStatus(source), activeSource ?? undefined) : null,
    plan: kind === 'proposal' ? toPlanView(planApply(stores, { slug, force: false, evaluate: true })) : null,
  };
}
