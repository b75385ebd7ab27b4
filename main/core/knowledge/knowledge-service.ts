import type { z } from 'zod';
import type { ThresholdsInForce } from '../../../shared/contract/knowledge';
import { loadSwarmConfig } from '../config/load-config';
import type { IndexDb } from '../index/open-index';
import { indexFingerprint, loadCounterInputs, loadEntriesByRid, loadKnowledgeInputs } from './from-index';
import { CounterState, KnowledgeModel, type EntryMarkers } from './knowledge-model';
import { DEFAULT_THRESHOLDS, resolveThresholds, type KnowledgeThresholds } from './thresholds';

/** Keys of the thresholds that live in the `curator` section rather than `knowledge`. */
const CURATOR_KEYS = new Set(['min_skill_confidence', 'min_skill_confirmations']);

/** The thresholds in force for a project: its config (project over user) over the plugin defaults. */
export function thresholdsInForce(projectDir: string): z.output<typeof ThresholdsInForce> {
  const config = loadSwarmConfig({ projectDir });
  const overrides: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_THRESHOLDS)) {
    const section = CURATOR_KEYS.has(key) ? config.values.curator : config.values.knowledge;
    if (section && Object.hasOwn(section, key)) overrides[key] = section[key];
  }
  const values = resolveThresholds(overrides as Partial<Record<keyof KnowledgeThresholds, unknown>>);
  const origins = config.settings
    .filter((s) => Object.hasOwn(DEFAULT_THRESHOLDS, s.key) && (CURATOR_KEYS.has(s.key) ? s.section === 'curator' : s.section === 'knowledge'))
    .map((s) => ({ key: s.key, origin: s.origin, problem: s.problem }));
  const problems = config.sources.map((s) => s.problem).filter((p): p is string => !!p);
  return { values, origins, problems };
}

/**
 * Per-workspace cache of the knowledge model. Everything is recomputed only when the index
 * changes (its file fingerprint) or the thresholds in force do; a table page asking for markers
 * reuses the counter rollups without loading every entry.
 */
export class KnowledgeService {
  private counterCache: { key: string; value: CounterState } | null = null;
  private modelCache: { key: string; value: KnowledgeModel } | null = null;

  constructor(
    private readonly db: () => Promise<IndexDb>,
    private readonly projectDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  thresholds(): z.output<typeof ThresholdsInForce> {
    return thresholdsInForce(this.projectDir);
  }

  private async keyed(): Promise<{ db: IndexDb; key: string; thresholds: KnowledgeThresholds }> {
    const db = await this.db();
    const thresholds = this.thresholds().values;
    return { db, key: `${indexFingerprint(db)}#${JSON.stringify(thresholds)}`, thresholds };
  }

  async counters(): Promise<CounterState> {
    const db = await this.db();
    const key = indexFingerprint(db);
    if (this.counterCache?.key !== key) this.counterCache = { key, value: new CounterState(loadCounterInputs(db), this.now()) };
    return this.counterCache.value;
  }

  async model(): Promise<KnowledgeModel> {
    const { db, key, thresholds } = await this.keyed();
    if (this.modelCache?.key !== key) {
      const counters = await this.counters();
      this.modelCache = { key, value: new KnowledgeModel(loadKnowledgeInputs(db), thresholds, this.now(), counters) };
    }
    return this.modelCache.value;
  }

  /** Markers for table rows, by index row id. */
  async markers(rids: readonly number[]): Promise<{ markers: Record<string, EntryMarkers>; asOf: string }> {
    const { db, thresholds } = await this.keyed();
    const counters = await this.counters();
    const markers: Record<string, EntryMarkers> = {};
    for (const entry of loadEntriesByRid(db, rids)) markers[String(entry.rid)] = counters.markers(entry, thresholds);
    return { markers, asOf: new Date(counters.asOf).toISOString() };
  }
}
