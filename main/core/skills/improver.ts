import path from 'node:path';
import type { z } from 'zod';
import type { ImproverProposal, Quota } from '../../../shared/contract/skills';
import { parseFrontmatter } from '../stores/frontmatter';
import { projectStoreFiles, readViewDocument, readViewText, type StoreScope } from '../stores/view-reads';
import { asRecord, list, n, s } from './skill-logs';

type Proposal = z.infer<typeof ImproverProposal>;
type QuotaView = z.infer<typeof Quota>;

/** `.swarm/skill-improver/proposals/*.md`, newest first (by `generated_at`, else the file name's timestamp). */
export async function listImproverProposals(scope: StoreScope): Promise<Proposal[]> {
  const out: Proposal[] = [];
  for (const file of projectStoreFiles('skill-improver-proposals', scope.projectDir)) {
    const name = path.basename(file.path);
    const read = await readViewText(file.path, scope);
    const base = { file: `.swarm/skill-improver/proposals/${name}`, generatedAt: null, targets: [], model: null, body: '' };
    if (!read.present) {
      if (read.problem) out.push({ ...base, source: 'unknown', problems: [read.problem] });
      continue;
    }
    const parsed = parseFrontmatter(read.text);
    const fm = parsed.frontmatter ?? {};
    const source = fm.source === 'llm' || fm.source === 'deterministic_fallback' ? fm.source : 'unknown';
    out.push({
      ...base,
      source,
      generatedAt: s(fm.generated_at),
      targets: list(fm.targets),
      model: s(fm.model),
      body: parsed.body.slice(0, 20_000),
      problems: [...parsed.problems, ...(source === 'unknown' ? [`source is ${JSON.stringify(fm.source ?? null)}, expected llm or deterministic_fallback`] : [])],
    } satisfies Proposal);
  }
  const key = (p: Proposal) => p.generatedAt ?? p.file;
  return out.sort((a, b) => key(b).localeCompare(key(a)));
}

const dayIn = (window: string, now: Date): string => {
  if (window === 'local') {
    const pad = (v: number) => String(v).padStart(2, '0');
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  }
  return now.toISOString().slice(0, 10);
};

/** Quota files (docs/plugin-formats.md#skill-improver): a file with an invalid date, calls_used, max_calls or window is ignored by the plugin. */
export async function readQuotas(scope: StoreScope, now: Date = new Date()): Promise<QuotaView[]> {
  const files = [
    ['skill_improver', 'skill-improver-quota', 'skill-improver-quota.json'],
    ['knowledge_enrichment', 'knowledge-enrichment-quota', 'knowledge-enrichment-quota.json'],
  ] as const;
  const reads = await Promise.all(files.map(([, key, name]) => readViewDocument(key, path.join(scope.projectDir, '.swarm', name), scope)));
  return files.map(([kind, , name], i) => {
    const read = reads[i]!;
    const q = asRecord(read.value);
    const date = s(q.date);
    const window = s(q.window);
    const used = n(q.calls_used);
    const max = n(q.max_calls);
    const invalid = !read.present
      ? null
      : (read.problem ??
        (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || used === null || used < 0 || max === null || max < 0 || (window !== 'utc' && window !== 'local') ? 'date, calls_used, max_calls or window is invalid: the plugin ignores this file' : null));
    return {
      file: `.swarm/${name}`,
      kind,
      present: read.present,
      problem: invalid,
      date,
      callsUsed: used,
      maxCalls: max,
      lastRunAt: s(q.last_run_at),
      window,
      resetsOnNextRun: read.present && !invalid && date !== dayIn(window as string, now),
    };
  });
}
