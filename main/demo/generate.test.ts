import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, makeDemo, readJson, readJsonl, treeHash, verifyChain } from '../../testing/demo/demo-workspace';
import { ensureDemoWorkspace } from './ensure-demo';
import { DEMO_GENERATOR_VERSION, DEFAULT_DEMO_NOW } from './generate';
import { scaleShares } from './scale';

const roots: string[] = [];
const scratch = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-gen-'));
  roots.push(dir);
  return dir;
};
afterAll(() => roots.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const lineCount = (file: string) => (fs.existsSync(file) ? readJsonl(file).length : 0);

describe('generateDemoWorkspace', () => {
  it('is byte-identical for the same seed and now, and differs for another seed or anchor', () => {
    const root = scratch();
    const generate = (seed: number, now?: number) => {
      fs.rmSync(root, { recursive: true, force: true });
      fs.mkdirSync(root);
      makeDemo({ seed, ...(now === undefined ? {} : { now }) }, root);
      return treeHash(root);
    };
    const first = generate(42);
    expect(generate(42)).toBe(first);
    expect(generate(43)).not.toBe(first);
    expect(generate(42, DEFAULT_DEMO_NOW + 3_600_000)).not.toBe(first);
  });

  it('returns the demo project and the linked second project, and writes only plugin-shaped files', () => {
    const demo = makeDemo({}, scratch());
    expect(demo.secondProjectDir).toBe(path.join(demo.root, 'payments-worker'));
    const files = listFiles(demo.root).map((f) => path.relative(demo.root, f));
    expect(files.some((f) => /\.tmp/.test(f))).toBe(false);
    for (const file of files.filter((f) => /\.(jsonl|json|md|marker)$/.test(f) || path.basename(f) === '.knowledge-migrated')) {
      const text = fs.readFileSync(path.join(demo.root, file), 'utf8');
      expect(text.endsWith('\n') || file.endsWith('retired.marker'), file).toBe(true);
      expect(text.includes('\r'), file).toBe(false);
    }
  });

  it('spreads benchmark volumes across tiers and files while the ledger stays valid', () => {
    const base = makeDemo({}, scratch());
    const scale = { knowledgeEntries: 2_000, eventLines: 4_000, receiptRecords: 3_000 };
    const big = makeDemo({ scale }, scratch());
    const shares = scaleShares(scale);
    const grew = (rel: string) => lineCount(path.join(big.root, rel)) - lineCount(path.join(base.root, rel));
    expect(grew('billing-api/.swarm/knowledge.jsonl')).toBe(shares.swarmEntries);
    expect(grew('hive-data/shared-learnings.jsonl')).toBe(shares.hiveEntries);
    expect(grew('hive-data/links/payments-cohort/knowledge.jsonl')).toBe(shares.linkEntries);
    expect(grew('billing-api/.swarm/knowledge-events.jsonl')).toBe(shares.knowledgeEvents);
    expect(grew('billing-api/.swarm/knowledge-application.jsonl')).toBe(shares.applicationLines);
    expect(grew('billing-api/.swarm/events.jsonl')).toBe(shares.swarmEvents);
    expect(grew('hive-data/shared-knowledge-events.jsonl')).toBe(shares.hiveEvents);
    expect(grew('hive-data/links/payments-cohort/knowledge-events.jsonl')).toBe(shares.linkEvents);
    expect(shares.swarmEntries + shares.hiveEntries + shares.linkEntries).toBe(2_000);
    expect(shares.knowledgeEvents + shares.applicationLines + shares.swarmEvents + shares.hiveEvents + shares.linkEvents).toBe(4_000);

    const journal = verifyChain(big.swarm('knowledge-receipts-v2.jsonl'));
    const baseJournal = verifyChain(base.swarm('knowledge-receipts-v2.jsonl'));
    const added = journal.length - baseJournal.length;
    expect(added).toBeGreaterThan(3_000 - 20);
    expect(added).toBeLessThanOrEqual(3_000);
    const snapshot = readJson(big.swarm('knowledge-receipts-v2.snapshot.json'));
    expect(snapshot.seq).toBe(journal.length);
    // The older history is all archived, so the live state is the curated story's.
    expect(snapshot.state_sha256).toBe(readJson(base.swarm('knowledge-receipts-v2.snapshot.json')).state_sha256);
    const archive = verifyChain(big.swarm('knowledge-receipts-v2-archive.jsonl'));
    expect(archive.length).toBeGreaterThan(2);
    for (const summary of archive) {
      const [first, last] = summary.from_seq as [number, number];
      expect(journal[last - 1]).toMatchObject({ type: 'phase_close', closed_phase: summary.phase, session_id: summary.session_id });
      expect(journal[first - 1]?.phase).toBe(summary.phase);
    }
    const times = journal.map((r) => r.ts as string);
    expect(times.every((t, i) => i === 0 || t >= (times[i - 1] as string))).toBe(true);
  });
});

describe('ensureDemoWorkspace', () => {
  it('generates once, keeps a fresh demo, and regenerates a stale anchor or an old generator version', () => {
    const userData = scratch();
    const now = Date.UTC(2027, 0, 15, 9, 30);
    const location = ensureDemoWorkspace(userData, now);
    const marker = path.join(userData, 'demo', '.generated.json');
    expect(readJson(marker)).toMatchObject({ version: DEMO_GENERATOR_VERSION, now });
    expect(fs.existsSync(path.join(location.projectDir, '.swarm', 'knowledge-receipts-v2.jsonl'))).toBe(true);
    expect(fs.existsSync(path.join(location.hiveDir, 'shared-learnings.jsonl'))).toBe(true);
    const violations = readJsonl(path.join(location.projectDir, '.swarm', 'knowledge-events.jsonl')).filter((e) => e.type === 'violated');
    expect(violations.some((e) => Date.parse(e.timestamp as string) > now - 7 * 86_400_000)).toBe(true);

    const firstHash = treeHash(path.join(userData, 'demo'));
    ensureDemoWorkspace(userData, now + 3_600_000);
    expect(treeHash(path.join(userData, 'demo'))).toBe(firstHash);

    ensureDemoWorkspace(userData, now + 2 * 86_400_000);
    expect(readJson(marker).now).toBe(now + 2 * 86_400_000);

    fs.writeFileSync(marker, JSON.stringify({ version: DEMO_GENERATOR_VERSION - 1, now: now + 2 * 86_400_000 }));
    fs.writeFileSync(path.join(userData, 'demo', 'stray.txt'), 'left over');
    ensureDemoWorkspace(userData, now + 2 * 86_400_000);
    expect(fs.existsSync(path.join(userData, 'demo', 'stray.txt'))).toBe(false);
    expect(readJson(marker).version).toBe(DEMO_GENERATOR_VERSION);
  });
});
