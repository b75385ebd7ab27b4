import type { EscapeHatches } from '../../../shared/contract/receipts';
import { loadSwarmConfig, type ConfigLocations } from '../platform/config/load-config';
import { DEFAULT_GATE_STALENESS_MS, DEFAULT_MAX_GATE_DENIALS, DEFAULT_RECEIPT_CLOSE_GRACE_DAYS } from '../rules/receipt-format';

/**
 * The receipt settings in force (docs/plugin-formats.md#configuration, DOC-ONLY keys): the gate escape hatches
 * `knowledge_application.max_gate_denials` (default 5) and `.gate_staleness_ms` (default 600000),
 * and `knowledge.receipt_close_grace_days` (default 7), read with the shared config loader
 * (project file deep-merged over the user file, as the plugin does).
 */
export function readEscapeHatches(locations: ConfigLocations): EscapeHatches {
  const config = loadSwarmConfig(locations);
  const setting = (section: 'knowledge' | 'knowledge_application', key: string) => config.settings.find((s) => s.section === section && s.key === key);
  const used = [setting('knowledge_application', 'max_gate_denials'), setting('knowledge_application', 'gate_staleness_ms'), setting('knowledge', 'receipt_close_grace_days')];
  const number = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  return {
    maxGateDenials: number(used[0]?.value, DEFAULT_MAX_GATE_DENIALS),
    gateStalenessMs: number(used[1]?.value, DEFAULT_GATE_STALENESS_MS),
    receiptCloseGraceDays: number(used[2]?.value, DEFAULT_RECEIPT_CLOSE_GRACE_DAYS),
    source: used.some((s) => s && s.origin !== 'default') ? 'config' : 'default',
    configFiles: config.sources.filter((s) => s.exists && !s.problem).map((s) => s.path),
    problems: [
      ...config.sources.filter((s) => s.problem).map((s) => `${s.path}: ${s.problem}`),
      ...used.filter((s) => s?.problem).map((s) => `${s?.section}.${s?.key}: ${s?.problem}`),
    ],
  };
}
