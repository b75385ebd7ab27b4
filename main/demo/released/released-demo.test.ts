import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildCounterRollups, effectiveOutcomes } from '../../core/rules/counters';
import { DEFAULT_DEMO_NOW } from '../clock';
import * as S from '../../../testing/demo/demo-schemas';
import { type Rec, listFiles, readJson, readJsonl, treeHash } from '../../../testing/demo/demo-workspace';
import { ensureDemoWorkspace } from '../ensure-demo';
import { RELEASED_DEMO_VERSION, RELEASED_IDS as ID, RELEASED_LINK_ID, RELEASED_PROJECT, RELEASED_WORKTREE, generateReleasedDemo, type ReleasedDemoLocation } from './generate-released';

/** Which schema validates each JSONL file of the released demo (relative to the demo root). */
const JSONL_SCHEMAS: Array<[RegExp, z.ZodType]> = [
  [/^released-hive\/links\/[^/]+\/knowledge\.jsonl$/, S.swarmEntry],
  [/^inventory-api-hotfix\/\.swarm\/knowledge\.jsonl$/, S.swarmEntry],
  [/\/knowledge-rejected\.jsonl$/, S.rejectedLesson],
  [/\/knowledge-unactionable\.jsonl$/, S.swarmUnactionable],
  [/\/knowledge-events\.jsonl$/, S.knowledgeEvent],
  [/\/knowledge-application\.jsonl$/, S.applicationLine],
  [/\/\.swarm\/events\.jsonl$/, S.swarmEvent],
  [/\/unacknowledged-criticals\.jsonl$/, S.unackCritical],
  [/\/skill-usage\.jsonl$/, S.skillUsage],
  [/\/skill-changelogs\/[a-z0-9-]+\.jsonl$/, S.changelogLine],
  [/^released-hive\/shared-learnings\.jsonl$/, S.hiveEntry],
  [/^released-hive\/shared-knowledge-events\.jsonl$/, S.knowledgeEvent],
];

describe('the released-plugin demo (opencode-swarm 7.103.2 shapes only)', () => {
  let root: string;
  let at: ReleasedDemoLocation;
  let files: string[];
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const link = (file: string) => path.join(at.hiveDir, 'links', RELEASED_LINK_ID, file);
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'released-demo-'));
    at = generateReleasedDemo(root, 42, DEFAULT_DEMO_NOW);
    files = listFiles(root);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('validates every JSONL line against the reference schema and writes nothing DOC-ONLY or PROPOSED', () => {
    for (const file of files.filter((f) => f.endsWith('.jsonl'))) {
      const match = JSONL_SCHEMAS.find(([re]) => re.test(rel(file)));
      expect(match, `no schema for ${rel(file)}`).toBeDefined();
      readJsonl(file).forEach((line, i) => {
        const result = (match as [RegExp, z.ZodType])[1].safeParse(line);
        expect(result.success, `${rel(file)}:${i + 1} ${result.success ? '' : JSON.stringify(result.error.issues)}`).toBe(true);
      });
    }
    expect(files.filter((f) => /knowledge-receipts-v2|quarantine|telemetry/.test(f)).map(rel)).toEqual([]);
    const events = readJsonl(link('knowledge-events.jsonl'));
    expect(events.filter((e) => e.type === 'acknowledged')).toEqual([]);
    for (const project of [at.projectDir, at.worktreeDir]) {
      const gate = readJsonl(path.join(project, '.swarm', 'events.jsonl')).filter((e) => String(e.event ?? '').startsWith('knowledge_application_gate'));
      expect(gate.length).toBeGreaterThan(0);
      expect(gate.every((e) => e.event === 'knowledge_application_gate_warn')).toBe(true);
    }
    const warnings = readJsonl(path.join(at.projectDir, '.swarm', 'events.jsonl')).filter((e) => Array.isArray(e.unacknowledged_critical_ids));
    expect(warnings).toHaveLength(4);
  });

  it('links both worktrees to one store and leaves the hotfix worktree an orphaned local knowledge.jsonl', () => {
    expect(path.basename(at.projectDir)).toBe(RELEASED_PROJECT);
    expect(path.basename(at.worktreeDir)).toBe(RELEASED_WORKTREE);
    for (const project of [at.projectDir, at.worktreeDir]) expect(readJson(path.join(project, '.swarm', 'link.json'))).toMatchObject({ version: 1, linkId: RELEASED_LINK_ID, source: 'manual' });
    expect(fs.existsSync(path.join(at.projectDir, '.swarm', 'knowledge.jsonl'))).toBe(false);
    const shared = new Set(readJsonl(link('knowledge.jsonl')).map((e) => e.id));
    const orphans = readJsonl(path.join(at.worktreeDir, '.swarm', 'knowledge.jsonl'));
    expect(orphans.length).toBeGreaterThan(0);
    for (const o of orphans) expect(shared.has(o.id)).toBe(true);
  });

  it('has critical directives shown many times and never answered, one escalated to enforce, and others answered with legacy verbs', () => {
    const entries = new Map(readJsonl(link('knowledge.jsonl')).map((e) => [e.id as string, e]));
    const events = readJsonl(link('knowledge-events.jsonl'));
    const application = readJsonl(link('knowledge-application.jsonl'));
    const rollups = buildCounterRollups({ baseline: {}, events, applicationLog: application });
    const effective = (id: string) => effectiveOutcomes(entries.get(id) as never, rollups.get(id));
    const answers = (id: string) => [...events.filter((e) => e.knowledge_id === id && e.type !== 'outcome'), ...application.filter((a) => a.knowledgeId === id && a.result !== 'shown')];

    expect(entries.get(ID.criticalEnforced)).toMatchObject({ directive_priority: 'critical', enforcement_mode: 'enforce' });
    expect(effective(ID.criticalEnforced).shown_count).toBe(20);
    expect(effective(ID.criticalUnanswered).shown_count).toBe(15);
    for (const id of [ID.criticalEnforced, ID.criticalUnanswered]) {
      expect(entries.get(id)?.directive_priority).toBe('critical');
      expect(answers(id)).toEqual([]);
    }
    expect(effective(ID.criticalAcknowledged).acknowledged_count).toBeGreaterThan(0);
    expect(effective(ID.criticalApplied)).toMatchObject({ acknowledged_count: 0, applied_explicit_count: 7 });
    expect(effective(ID.highViolated).violated_count).toBe(2);
    expect(events.filter((e) => e.knowledge_id === ID.mediumReceipt).map((e) => e.type).sort()).toEqual(expect.arrayContaining(['applied', 'ignored']));
    expect(effective(ID.shownOnlyInApplicationLog).shown_count).toBe(6);
    // the stored counters agree with what the plugin rolls up (it bumps them as it logs)
    const stored = (entries.get(ID.criticalEnforced) as Rec).retrieval_outcomes as Rec;
    expect(stored.shown_count).toBe(20);
  });

  it('is deterministic for a seed and an anchor', () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'released-demo-'));
    try {
      generateReleasedDemo(again, 42, DEFAULT_DEMO_NOW);
      expect(treeHash(again)).toBe(treeHash(root));
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  });

  it('is generated beside the rich demo, and again when its own version changes', () => {
    const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'released-demo-user-'));
    try {
      const now = Date.UTC(2027, 0, 15, 9, 30);
      const location = ensureDemoWorkspace(userData, now);
      expect(fs.existsSync(path.join(location.released.projectDir, '.swarm', 'link.json'))).toBe(true);
      const marker = path.join(userData, 'demo', '.generated.json');
      expect(readJson(marker)).toMatchObject({ released: RELEASED_DEMO_VERSION, now });
      fs.writeFileSync(marker, JSON.stringify({ ...readJson(marker), released: RELEASED_DEMO_VERSION - 1 }));
      fs.writeFileSync(path.join(location.released.hiveDir, 'stray.txt'), 'left over');
      ensureDemoWorkspace(userData, now);
      expect(fs.existsSync(path.join(location.released.hiveDir, 'stray.txt'))).toBe(false);
      expect(readJson(marker).released).toBe(RELEASED_DEMO_VERSION);
    } finally {
      fs.rmSync(userData, { recursive: true, force: true });
    }
  });
});
