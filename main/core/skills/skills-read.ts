import fs from 'node:fs';
import path from 'node:path';
import { diffLines } from 'diff';
import type { z } from 'zod';
import type { SkillCandidate, SkillDetail, SkillItem, UsageSummary } from '../../../shared/contract/skills';
import { parseFrontmatter } from '../stores/frontmatter';
import { GENERATOR_MARKER } from '../stores/schemas/skills';
import { draftSourceIds, flipStatus, isMotifProposal, planApply, type ApplyPlan, type SkillStorePaths } from './apply';
import { evaluate, loadEvalSet } from './eval';
import { matchingRejection, readRejectedEdits } from './rejected-edits';
import { asRecord, list, n, readJson, readJsonLines, s, slugOfSkillPath, usageVerdict } from './skill-logs';
import { isTempName } from '../platform/paths/temp-name';
import { checkSlug, isValidSlug, skillPaths } from './skill-paths';

type Usage = z.infer<typeof UsageSummary>;
type Candidate = z.infer<typeof SkillCandidate>;
export type SourceView = SkillDetail['sources'][number];

const rel = (projectDir: string, file: string) => path.relative(projectDir, file).split(path.sep).join('/');
const readText = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};
const heading = (body: string): string | null => /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? null;

function usageBySlug(projectDir: string): Map<string, Usage> {
  const out = new Map<string, Usage>();
  for (const { value } of readJsonLines(path.join(projectDir, '.swarm', 'skill-usage.jsonl'))) {
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
export function listSkills(projectDir: string): SkillItem[] {
  const items: SkillItem[] = [];
  const ledger = readRejectedEdits(path.join(projectDir, '.swarm', 'skills', 'rejected-edits.jsonl'));
  const proposals = path.join(projectDir, '.swarm', 'skills', 'proposals');
  for (const name of safeList(proposals)) {
    if (!name.endsWith('.md') || isTempName(name)) continue;
    const file = path.join(proposals, name);
    const text = readText(file);
    if (text === null) continue;
    const slug = name.slice(0, -3);
    const item = baseItem(slug, isMotifProposal(text) ? 'motif' : 'draft', file, text, projectDir);
    const p = skillPaths(projectDir, slug);
    item.hasActive = isValidSlug(slug) && fs.existsSync(p.active);
    const match = matchingRejection(ledger, slug, text);
    item.rejected = match ? { timestamp: s(match.timestamp), operation: s(match.operation), reason: s(match.reason) } : null;
    item.evalCases = evalCount(projectDir, slug);
    if (!isValidSlug(slug)) item.problems.push('file name is not a valid skill slug: skill_apply cannot address it');
    items.push(item);
  }
  const usage = usageBySlug(projectDir);
  const generated = path.join(projectDir, '.opencode', 'skills', 'generated');
  for (const slug of safeList(generated)) {
    const p = skillPaths(projectDir, slug);
    const text = readText(p.active);
    if (text === null) continue;
    const retiredRaw = readJson(p.retiredMarker);
    const staleText = readText(p.staleMarker);
    const kind = retiredRaw.present ? 'retired' : staleText !== null ? 'stale' : 'active';
    const item = baseItem(slug, kind, p.active, text, projectDir);
    item.hasMarker = text.includes(GENERATOR_MARKER);
    if (retiredRaw.present) {
      const m = asRecord(retiredRaw.value);
      item.retired = { retiredAt: s(m.retiredAt), reason: s(m.reason) };
      if (retiredRaw.problem) item.problems.push(`retired.marker ${retiredRaw.problem}`);
    }
    item.staleReason = staleText === null ? null : staleText.trim() || 'stale';
    item.usage = usage.get(slug) ?? null;
    item.evalCases = evalCount(projectDir, slug);
    if (fs.lstatSync(p.activeDir).isSymbolicLink()) item.problems.push('the skill folder is a symlink');
    items.push(item);
  }
  return items;
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** External-skill candidates: the upstream shape is not specified, so the usual names are read leniently. */
export function listCandidates(projectDir: string): Candidate[] {
  const dir = path.join(projectDir, '.swarm', 'skills', 'candidates');
  return safeList(dir)
    .filter((name) => name.endsWith('.json') && !isTempName(name))
    .map((name) => {
      const read = readJson(path.join(dir, name));
      const r = asRecord(read.value);
      const flags = (Array.isArray(r.risk_flags) ? r.risk_flags : Array.isArray(r.riskFlags) ? r.riskFlags : []).map((f) => (typeof f === 'string' ? f : (s(asRecord(f).flag) ?? s(asRecord(f).code) ?? JSON.stringify(f))));
      return {
        file: rel(projectDir, path.join(dir, name)),
        id: s(r.id) ?? name.slice(0, -5),
        name: s(r.name) ?? s(r.skill_name) ?? s(r.title),
        state: s(r.lifecycle_state) ?? s(r.state) ?? s(r.status),
        verdict: s(r.verdict) ?? s(r.scan_verdict) ?? s(r.review_verdict),
        riskFlags: flags,
        source: s(r.source_url) ?? s(r.source) ?? s(r.origin),
        json: read.value === null ? '' : JSON.stringify(read.value, null, 2).slice(0, 20_000),
        problem: read.problem,
      };
    });
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
    evaluation: plan.evaluation,
  };
}

/** One draft/motif (`proposal`) or generated skill (`active`) with everything a reviewer needs. */
export function skillDetail(stores: SkillStorePaths, slugInput: string, kind: 'proposal' | 'active', lookup: SourceLookup): SkillDetail | null {
  const check = checkSlug(slugInput);
  if (!check.ok) return null;
  const slug = check.slug;
  const { projectDir } = stores;
  const item = listSkills(projectDir).find((i) => i.slug === slug && (kind === 'proposal' ? i.kind === 'draft' || i.kind === 'motif' : i.kind !== 'draft' && i.kind !== 'motif'));
  if (!item) return null;
  const p = skillPaths(projectDir, slug);
  const source = readText(kind === 'proposal' ? p.proposal : p.active) ?? '';
  const activeSource = kind === 'proposal' ? readText(p.active) : null;
  const diff = activeSource === null ? null : diffLines(activeSource, source).map((part) => ({ kind: part.added ? ('add' as const) : part.removed ? ('del' as const) : ('same' as const), text: part.value }));
  const ledger = readRejectedEdits(p.rejectedEdits);
  const matching = kind === 'proposal' ? matchingRejection(ledger, slug, source) : null;
  const usage = readJsonLines(path.join(projectDir, '.swarm', 'skill-usage.jsonl'))
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
    changelog: readJsonLines(p.changelog).map(({ value }) => ({ version: n(value.version), timestamp: s(value.timestamp), action: s(value.action), reason: s(value.reason), sectionsChanged: list(value.sectionsChanged) })),
    usage,
    rejectedEdits: ledger
      .filter((r) => r.slug === slug)
      .map((r) => ({ timestamp: s(r.timestamp), operation: s(r.operation), reason: s(r.reason), candidateScore: n(r.candidateScore), incumbentScore: n(r.incumbentScore), caseCount: n(r.caseCount), matchesThis: r === matching }))
      .reverse(),
    evalPreview: kind === 'proposal' ? evaluate(loadEvalSet(projectDir, slug), flipStatus(source), activeSource ?? undefined) : null,
    plan: kind === 'proposal' ? toPlanView(planApply(stores, { slug, force: false, evaluate: true })) : null,
  };
}
