import fs from 'node:fs';
import path from 'node:path';
import { CATEGORIES, PRIORITIES } from '../../main/core/stores/schemas/knowledge';

/**
 * A seeded writer of LARGE stores in the plugin's formats, for the benchmark (and load tests).
 * It is deliberately simple: realistic field mixes and sizes, deterministic for a given seed,
 * written in chunks so memory stays flat.
 */
interface SyntheticScale {
  events: number;
  entries: number;
  receipts: number;
}

interface SyntheticFiles {
  eventFiles: string[];
  entryFiles: string[];
  receiptFiles: string[];
  bytes: number;
}

/** mulberry32: a seeded random number in [0, 1), the same sequence for the same seed (fixtures, fuzzing, benches). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'scope reviewer coder architect delegate migration refund webhook retry backoff test fixture schema index cache stream parser lock rename append phase gate directive skill hive swarm ledger receipt trace session budget token'.split(' ');
const STEMS = 'index cache scope lock parse stream retry queue batch shard token budget schema fixture mock deploy rollback migrate webhook ledger receipt trace session phase gate skill hive swarm lesson review commit branch merge rebase vendor bundle lint format build worker thread socket'.split(' ');
const AFFIXES = ['', 're', 'pre', 'un', 'over', 'sub', 'auto', 'multi', 'co', 'de'];
/** ~400 words, so a search term matches a realistic few percent of lessons (not a third of them). */
const LESSON_VOCABULARY: readonly string[] = AFFIXES.flatMap((a) => STEMS.map((s) => a + s));
const AGENTS = ['architect', 'coder', 'reviewer', 'test_engineer', 'explorer', 'sme', 'docs', 'designer'];
const TOOLS = ['save_plan', 'update_task_status', 'phase_complete', 'task', 'Task', 'bash', 'edit'];
const KNOWLEDGE_TYPES = ['retrieved', 'retrieved', 'acknowledged', 'applied', 'applied', 'ignored', 'violated', 'n_a', 'outcome', 'contradicted'];
const SWARM_EVENTS = ['knowledge_application_gate_warn', 'knowledge_application_gate_deny', 'curator_skipped', 'skill_propagation_warn', 'curator_compliance'];

export const syntheticIds = {
  entry: (i: number) => `e${(i * 2654435761 % 4294967296).toString(16).padStart(8, '0')}-${i.toString(16).padStart(4, '0')}-4000-8000-${i.toString(16).padStart(12, '0')}`,
  session: (i: number) => `ses_${(i % 997).toString(36)}${(i % 31).toString(36)}`,
  trace: (i: number) => `${(i % 65536).toString(16).padStart(8, '0')}-1111-4222-8333-${i.toString(16).padStart(12, '0')}`,
};

class ChunkWriter {
  private parts: string[] = [];
  private size = 0;
  bytes = 0;
  private readonly fd: number;
  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'w');
  }
  line(record: unknown): void {
    const text = JSON.stringify(record) + '\n';
    this.parts.push(text);
    this.size += text.length;
    if (this.size > 4 * 1024 * 1024) this.flush();
  }
  flush(): void {
    if (!this.parts.length) return;
    const buffer = Buffer.from(this.parts.join(''));
    fs.writeSync(this.fd, buffer);
    this.bytes += buffer.length;
    this.parts = [];
    this.size = 0;
  }
  close(): number {
    this.flush();
    fs.closeSync(this.fd);
    return this.bytes;
  }
}

export function writeSyntheticStores(projectDir: string, hiveDir: string, scale: SyntheticScale, seed = 7): SyntheticFiles {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const lessonWords = (n: number) => Array.from({ length: n }, () => pick(LESSON_VOCABULARY)).join(' ');
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const at = (i: number, total: number) => new Date(base + Math.floor((i / Math.max(1, total)) * 180 * 86_400_000) + Math.floor(random() * 60_000)).toISOString();
  const swarm = path.join(projectDir, '.swarm');
  let bytes = 0;

  // Knowledge entries across tiers: 60% swarm, 30% hive, 5% quarantined, 5% rejected.
  const entryFiles = {
    swarm: path.join(swarm, 'knowledge.jsonl'),
    hive: path.join(hiveDir, 'shared-learnings.jsonl'),
    quarantined: path.join(swarm, 'knowledge-quarantined.jsonl'),
    rejected: path.join(swarm, 'knowledge-rejected.jsonl'),
  };
  const writers = Object.fromEntries(Object.entries(entryFiles).map(([k, f]) => [k, new ChunkWriter(f)])) as Record<keyof typeof entryFiles, ChunkWriter>;
  for (let i = 0; i < scale.entries; i++) {
    const r = random();
    const kind = r < 0.6 ? 'swarm' : r < 0.9 ? 'hive' : r < 0.95 ? 'quarantined' : 'rejected';
    const created = at(i, scale.entries);
    const lesson = `${lessonWords(4)} before ${lessonWords(3)}: ${lessonWords(6 + Math.floor(random() * 12))}.`;
    if (kind === 'rejected') {
      writers.rejected.line({ id: syntheticIds.entry(i), lesson, rejection_reason: 'vague lesson', rejected_at: created, rejection_layer: 3 });
      continue;
    }
    const entry: Record<string, unknown> = {
      id: syntheticIds.entry(i),
      tier: kind === 'hive' ? 'hive' : 'swarm',
      lesson,
      category: pick(CATEGORIES),
      tags: [pick(WORDS), pick(WORDS)],
      scope: random() < 0.9 ? 'global' : `stack:${pick(WORDS)}`,
      confidence: Math.round(random() * 100) / 100,
      status: kind === 'quarantined' ? 'quarantined' : pick(['candidate', 'candidate', 'established', 'promoted', 'archived']),
      confirmed_by: [{ phase_number: 1 + Math.floor(random() * 9), confirmed_at: created, project_name: `project-${i % 40}` }],
      retrieval_outcomes: random() < 0.3 ? { applied_count: Math.floor(random() * 9), succeeded_after_count: 1, failed_after_count: 0 } : { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0, shown_count: Math.floor(random() * 40), acknowledged_count: 2, applied_explicit_count: 1, ignored_count: 0, violated_count: 0, contradicted_count: 0, succeeded_after_shown_count: 1, failed_after_shown_count: 0 },
      schema_version: 1,
      created_at: created,
      updated_at: created,
      phases_alive: Math.floor(random() * 12),
      [kind === 'hive' ? 'source_project' : 'project_name']: `project-${i % 40}`,
      encounter_score: kind === 'hive' ? Math.round(random() * 300) / 100 : 0,
      triggers: [lessonWords(4)],
      required_actions: [lessonWords(5)],
      forbidden_actions: [lessonWords(5)],
      applies_to_agents: [pick(AGENTS)],
      directive_priority: pick(PRIORITIES),
    };
    if (kind === 'quarantined') Object.assign(entry, { original_status: 'candidate', quarantine_reason: 'retracted', quarantined_at: created, reported_by: 'user' });
    writers[kind].line(entry);
  }
  for (const w of Object.values(writers)) bytes += w.close();

  // Events: 60% knowledge-events.jsonl, 40% events.jsonl.
  const eventFiles = [path.join(swarm, 'knowledge-events.jsonl'), path.join(swarm, 'events.jsonl')];
  const [knowledgeEvents, swarmEvents] = eventFiles.map((f) => new ChunkWriter(f)) as [ChunkWriter, ChunkWriter];
  for (let i = 0; i < scale.events; i++) {
    const timestamp = at(i, scale.events);
    const session = syntheticIds.session(Math.floor(random() * 5000));
    const knowledgeId = syntheticIds.entry(Math.floor(random() * Math.max(1, scale.entries)));
    if (random() < 0.6) {
      const type = pick(KNOWLEDGE_TYPES);
      const common = { schema_version: 1, type, trace_id: syntheticIds.trace(i), session_id: session, phase: `Phase ${1 + (i % 9)}`, agent: pick(AGENTS), event_id: `ev-${i}`, timestamp };
      if (type === 'retrieved') knowledgeEvents.line({ ...common, query: words(5), retrieval_mode: 'auto_injection', result_ids: [knowledgeId, syntheticIds.entry(i % 997)] });
      else if (type === 'outcome') knowledgeEvents.line({ ...common, knowledge_id: knowledgeId, outcome: pick(['success', 'failure', 'partial']), evidence_summary: words(6) });
      else knowledgeEvents.line({ ...common, knowledge_id: knowledgeId, reason: words(8) });
    } else {
      const event = pick(SWARM_EVENTS);
      const common = { timestamp, tool: pick(TOOLS), agent: pick(AGENTS), sessionID: session };
      if (event === 'curator_compliance') swarmEvents.line({ type: event, timestamp, phase: 1 + (i % 9), observation_type: 'missing_reviewer', severity: 'warning', description: words(8) });
      else if (event === 'skill_propagation_warn') swarmEvents.line({ type: event, ...common, target_agent: pick(AGENTS), skills_missing: true, available_skills: [] });
      else if (event === 'curator_skipped') swarmEvents.line({ event, timestamp, entry_id: knowledgeId, lesson: words(10), reason: 'missing_scope' });
      else swarmEvents.line({ event, ...common, entry_ids: [knowledgeId], trace_ids: [syntheticIds.trace(i)], entry_set_key: knowledgeId.slice(0, 16), denial_count: 1 + (i % 5), max_gate_denials: 5 });
    }
  }
  bytes += knowledgeEvents.close() + swarmEvents.close();

  // Receipt journal records (record-level shape; the chain is not meant to verify).
  const receiptFile = path.join(swarm, 'knowledge-receipts-v2.jsonl');
  const receipts = new ChunkWriter(receiptFile);
  const hex = (i: number) => (i.toString(16).padStart(16, '0')).repeat(4);
  for (let i = 0; i < scale.receipts; i++) {
    const envelope = { schema: 'swarm.knowledge-receipt/2', seq: i + 1, gen: 1, ts: at(i, scale.receipts), project_id: 'a1b2c3d4e5f6', session_id: syntheticIds.session(i % 5000), phase: `Phase ${1 + (i % 9)}`, task_id: `${1 + (i % 9)}.${i % 7}`, prev: hex(i), hash: hex(i + 1) };
    const trace = syntheticIds.trace(Math.floor(i / 2));
    if (i % 2 === 0) receipts.line({ ...envelope, type: 'membership', trace_id: trace, retrieval_mode: 'auto_injection', agent: pick(AGENTS), entries: [{ entry_id: syntheticIds.entry(i % 1000), tier: 'swarm', rank: 1, priority: 'critical', obligation: 'ack_required', entry_sha256: hex(i) }] });
    else receipts.line({ ...envelope, type: 'terminal', trace_id: trace, entry_id: syntheticIds.entry((i - 1) % 1000), outcome: pick(['applied', 'ignored', 'n_a']), source: 'delegate', agent: pick(AGENTS), reason: words(5), evidence: null, receipt_semantics: 2, idempotency_key: `${trace}:x:delegate` });
  }
  bytes += receipts.close();
  return { eventFiles, entryFiles: Object.values(entryFiles), receiptFiles: [receiptFile], bytes };
}
