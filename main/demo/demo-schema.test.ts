import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as S from '../../testing/demo/demo-schemas';
import { type DemoFixture, type Rec, listFiles, makeDemo, readJson, readJsonl } from '../../testing/demo/demo-workspace';
import { DEFAULT_DEMO_NOW } from './generate';

/** Which schema validates each line of each JSONL file (relative to the demo root). */
const JSONL_SCHEMAS: Array<[RegExp, z.ZodType]> = [
  [/^(billing-api|payments-worker)\/\.swarm\/knowledge\.jsonl$/, S.swarmEntry],
  [/^hive-data\/links\/[^/]+\/knowledge\.jsonl$/, S.swarmEntry],
  [/(^|\/)knowledge-rejected\.jsonl$/, S.rejectedLesson],
  [/^hive-data\/shared-learnings-rejected\.jsonl$/, S.rejectedLesson],
  [/(^|\/)knowledge-quarantined\.jsonl$/, S.swarmQuarantined],
  [/(^|\/)knowledge-unactionable\.jsonl$/, S.swarmUnactionable],
  [/(^|\/)knowledge-retractions\.jsonl$/, S.retraction],
  [/(^|\/)knowledge-events\.jsonl$/, S.knowledgeEvent],
  [/(^|\/)knowledge-application\.jsonl$/, S.applicationLine],
  [/^billing-api\/\.swarm\/events\.jsonl$/, S.swarmEvent],
  [/\/unacknowledged-criticals\.jsonl$/, S.unackCritical],
  [/\/skill-usage\.jsonl$/, S.skillUsage],
  [/\/skills\/rejected-edits\.jsonl$/, S.rejectedEdit],
  [/\/skill-changelogs\/[a-z0-9-]+\.jsonl$/, S.changelogLine],
  [/\/insight-candidates\.jsonl$/, S.insightCandidate],
  [/^hive-data\/shared-learnings\.jsonl$/, S.hiveEntry],
  [/^hive-data\/quarantine-backups\/[^/]+\/(shared-learnings|selected)\.jsonl$/, S.hiveEntry],
  [/^hive-data\/shared-learnings-quarantined\.jsonl$/, S.hiveSidecar],
  [/^hive-data\/shared-knowledge-events\.jsonl$/, S.hiveAuditEvent],
];
/** Hash-chained ledger files are verified in receipts.test.ts; telemetry has one documented line shape. */
const CHECKED_ELSEWHERE = [/knowledge-receipts-v2(-archive|-quarantine)?\.jsonl$/, /telemetry\.jsonl$/];

function check(schema: z.ZodType, value: unknown, where: string): void {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${where}: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
}

describe('demo workspace schemas', () => {
  let demo: DemoFixture;
  let files: string[];
  const rel = (file: string) => path.relative(demo.root, file).split(path.sep).join('/');
  beforeAll(() => {
    demo = makeDemo();
    files = listFiles(demo.root);
  });
  afterAll(() => demo.cleanup());

  it('validates every line of every JSONL store against the reference schema, in time order', () => {
    const jsonl = files.filter((f) => f.endsWith('.jsonl') && !CHECKED_ELSEWHERE.some((re) => re.test(rel(f))));
    expect(jsonl.length).toBeGreaterThan(25);
    for (const file of jsonl) {
      const match = JSONL_SCHEMAS.find(([re]) => re.test(rel(file)));
      expect(match, `no schema for ${rel(file)}`).toBeDefined();
      const lines = readJsonl(file);
      expect(lines.length, rel(file)).toBeGreaterThan(0);
      lines.forEach((line, i) => check((match as [RegExp, z.ZodType])[1], line, `${rel(file)}:${i + 1}`));
      const times = lines.map((l) => String(l.timestamp ?? l.rejected_at ?? l.recorded_at ?? l.quarantined_at ?? ''));
      if (/events|application|usage|rejected|retractions|unacknowledged|changelogs|unactionable/.test(rel(file))) {
        expect(times.every((t, i) => i === 0 || t >= (times[i - 1] as string)), `${rel(file)} is not in time order`).toBe(true);
      }
    }
  });

  it('keeps every timestamp at or before now (only deadlines lie ahead)', () => {
    const now = new Date(DEFAULT_DEMO_NOW).toISOString();
    for (const file of files.filter((f) => /\.(jsonl|json|md)$/.test(f))) {
      const pairs = fs.readFileSync(file, 'utf8').matchAll(/"?([A-Za-z_]+)"?: ?"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"/g);
      const late = [...pairs].filter(([, key, ts]) => (ts as string) > now && !['archive_eligible_after', 'token_exp'].includes(key as string));
      expect(late.map(([match]) => match), rel(file)).toEqual([]);
    }
  });

  it('writes the pretty JSON state files the plugin pretty-prints', () => {
    const pretty = [
      'billing-api/.swarm/knowledge-counter-baseline.json', 'billing-api/.swarm/.knowledge-shown.json', 'billing-api/.swarm/curator-summary.json', 'billing-api/.swarm/skill-improver-quota.json',
      'billing-api/.swarm/knowledge-enrichment-quota.json', 'billing-api/.opencode/opencode-swarm.json', 'payments-worker/.swarm/link.json', 'hive-data/links/payments-cohort/knowledge-counter-baseline.json',
    ];
    for (const file of pretty) {
      const text = fs.readFileSync(path.join(demo.root, file), 'utf8');
      expect(text, file).toBe(JSON.stringify(JSON.parse(text), null, 2) + '\n');
    }
    for (const file of ['knowledge-counter-baseline.json']) {
      const baseline = readJson(demo.swarm(file));
      expect(Object.keys(baseline)).toEqual(Object.keys(baseline).sort());
      for (const [id, rollup] of Object.entries(baseline)) check(S.counterRollup, rollup, `${file} ${id}`);
    }
    const shown = readJson(demo.swarm('.knowledge-shown.json'));
    expect(Object.keys(shown)).toEqual(['Phase 5']);
    for (const ids of Object.values(shown)) for (const id of ids as string[]) check(S.uuid, id, '.knowledge-shown.json');
    check(S.quota, readJson(demo.swarm('skill-improver-quota.json')), 'skill-improver-quota.json');
    check(S.quota, readJson(demo.swarm('knowledge-enrichment-quota.json')), 'knowledge-enrichment-quota.json');
    check(S.linkPointer, readJson(path.join(demo.secondProjectDir, '.swarm', 'link.json')), 'link.json');
    for (const phase of ['1', '2', '3', '4']) check(S.findings, readJson(demo.swarm(`evidence/${phase}/curator-findings.json`)), `evidence/${phase}`);
    for (const file of files.filter((f) => /\/skills\/evals\/[^/]+\/[^/]+\.json$/.test(f))) check(S.evalFixture, readJson(file), rel(file));
    const config = readJson(path.join(demo.projectDir, '.opencode', 'opencode-swarm.json'));
    expect((config.knowledge_application as Rec).mode).toBe('enforce');
  });

  it('writes curator and sentinel files with their documented fields', () => {
    const summary = readJson(demo.swarm('curator-summary.json'));
    expect(summary.schema_version).toBe(1);
    expect(Object.keys(summary)).toEqual(['schema_version', 'session_id', 'last_updated', 'last_phase_covered', 'digest', 'phase_digests', 'compliance_observations', 'knowledge_recommendations']);
    for (const rec of summary.knowledge_recommendations as Rec[]) expect(['promote', 'archive', 'flag_contradiction', 'rewrite']).toContain(rec.action);
    expect(Object.keys(readJson(demo.swarm('verdict-feedback-last-processed.json')))).toEqual(['lastProcessedTimestamp', 'lastProcessedEventId']);
    expect(Object.keys(readJson(demo.swarm('.knowledge-migrated')))).toEqual(['migrated_at', 'source_version', 'target_version', 'entries_migrated', 'entries_dropped', 'schema_version', 'migration_tool']);
    const synonyms = readJson(demo.swarm('synonym-map.json'));
    expect(synonyms.version).toBe(1);
  });

  it('writes skills with the generator frontmatter, marker line and body sections', () => {
    const marker = '<!-- generated by opencode-swarm skill-generator. Do not edit by hand; edits will be preserved on regeneration only with controlled update mode. -->';
    const handEdited = files.filter((f) => f.endsWith('/generated/pan-masking/SKILL.md'));
    const skills = files.filter((f) => !handEdited.includes(f) && (/\.opencode\/skills\/generated\/[^/]+\/SKILL\.md$/.test(f) || (/\.swarm\/skills\/proposals\/[^/]+\.md$/.test(f) && !/^(motif|workflow)-/.test(path.basename(f)))));
    expect(skills).toHaveLength(9);
    // The hand-edited active skill is the one SKILL.md without the marker.
    expect(handEdited).toHaveLength(1);
    expect(fs.readFileSync(handEdited[0] as string, 'utf8')).not.toContain('generated by opencode-swarm skill-generator');
    for (const file of skills) {
      const text = fs.readFileSync(file, 'utf8');
      const [, front, body] = text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/) ?? [];
      const keys = (front ?? '').split('\n').filter((l) => /^[a-z_]+:/.test(l)).map((l) => l.split(':')[0]);
      expect(keys, rel(file)).toEqual(['name', 'description', 'triggers', 'generated_from_knowledge', 'source_knowledge_ids', 'generated_at', 'confidence', 'status', 'version', 'skill_origin', 'skill_type']);
      expect(front).toMatch(file.includes('/proposals/') ? /^status: draft$/m : /^status: active$/m);
      expect(body?.split('\n').slice(0, 2)).toEqual(['', marker]);
      for (const section of ['## Trigger', '## Required Procedure', '## Forbidden Shortcuts', '## Delegation Template', '## Reviewer Checks', '## Source Knowledge IDs']) expect(body).toContain(`\n${section}\n`);
      expect(body).toContain(`SKILLS: file:.opencode/skills/generated/${path.basename(file.includes('/proposals/') ? file.slice(0, -3) : path.dirname(file))}/SKILL.md`);
    }
    const motif = fs.readFileSync(files.find((f) => path.basename(f).startsWith('motif-')) as string, 'utf8');
    expect(motif).toMatch(/^---\nslug: motif-[\s\S]*\nstatus: proposal\n[\s\S]*generated_by: macro_reflector\n/);
    expect(motif).not.toContain('generated by opencode-swarm skill-generator');
    const workflow = fs.readFileSync(files.find((f) => path.basename(f).startsWith('workflow-')) as string, 'utf8');
    expect(workflow).toMatch(/^---\nslug: workflow-[\s\S]*\nstatus: proposal\nskill_type: workflow\n[\s\S]*generated_by: macro_reflector_success\n/);
    const retired = readJson(files.find((f) => f.endsWith('retired.marker')) as string);
    expect(Object.keys(retired)).toEqual(['retiredAt', 'reason']);
    expect(files.filter((f) => f.endsWith('stale.marker'))).toHaveLength(1);
    const improver = files.filter((f) => /skill-improver\/proposals\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.md$/.test(f));
    expect(improver.map((f) => fs.readFileSync(f, 'utf8').match(/^source: (.+)$/m)?.[1]).sort()).toEqual(['deterministic_fallback', 'llm']);
  });
});
