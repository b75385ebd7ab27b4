import path from 'node:path';
import fs from 'node:fs';
import type { z } from 'zod';
import type { ImproverProposal, Quota } from '../../../shared/contract/skills';
import { parseFrontmatter } from '../stores/frontmatter';
import { asRecord, list, n, readJson, s } from './skill-logs';
import { isTempName } from '../platform/paths/temp-name';

type Proposal = z.infer<typeof ImproverProposal>;
type QuotaView = z.infer<typeof Quota>;

/** `.swarm/skill-improver/proposals/*.md`, newest first (by `generated_at`, else the file name's timestamp). */
export function listImproverProposals(projectDir: string): Proposal[] {
  const dir = path.join(projectDir, '.swarm', 'skill-improver', 'proposals');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out = names
    .filter((name) => name.endsWith('.md') && !isTempName(name))
    .map((name) => {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      const parsed = parseFrontmatter(text);
      const fm = parsed.frontmatter ?? {};
      const source = fm.source === 'llm' || fm.source === 'deterministic_fallback' ? fm.source : 'unknown';
      return {
        file: `.swarm/skill-improver/proposals/${name}`,
        source,
        generatedAt: s(fm.generated_at),
        targets: list(fm.targets),
        model: s(fm.model),
        body: parsed.body.slice(0, 20_000),
        problems: [...parsed.problems, ...(source === 'unknown' ? [`source is ${JSON.stringify(fm.source ?? null)}, expected llm or deterministic_fallback`] : [])],
      } satisfies Proposal;
    });
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
export function readQuotas(projectDir: string, now: Date = new Date()): QuotaView[] {
  const files = [
    ['skill_improver', 'skill-improver-quota.json'],
    ['knowledge_enrichment', 'knowledge-enrichment-quota.json'],
  ] as const;
  return files.map(([kind, name]) => {
    const read = readJson(path.join(projectDir, '.swarm', name));
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
