import type { z } from 'zod';
import type { ThresholdsInForce } from '../../../shared/contract/knowledge';
import { loadSwarmConfig } from '../platform/config/load-config';
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

