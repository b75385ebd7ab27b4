import path from 'node:path';
import { readJsonl, type JsonlReadResult } from '../stores/jsonl-reader';
import { readViewDocument } from '../stores/view-reads';
import { LEGACY_FILES } from '../rules/receipt-format';

/**
 * The receipt logs the released plugin writes (docs/plugin-formats.md#legacy-receipts,
 * #event-logs), read with the shared line reader. `knowledge-events.jsonl` and `knowledge-application.jsonl` follow a link
 * (they live in the knowledge dir); `unacknowledged-criticals.jsonl` and `events.jsonl` stay in
 * the worktree's `.swarm/`.
 */

type Rec = Record<string, unknown>;

export interface LegacyLine {
  line: number;
  value: Rec;
}

export interface LegacyLog {
  file: string;
  read: JsonlReadResult;
  lines: LegacyLine[];
}

export interface LegacySources {
  /** knowledge-events.jsonl: retrievals, receipts, outcomes, overrides. */
  events: LegacyLog;
  /** knowledge-application.jsonl: shown / acknowledged (= N/A) / applied / ignored / violated. */
  application: LegacyLog;
  /** unacknowledged-criticals.jsonl: delegate acks that never came. */
  unacknowledged: LegacyLog;
  /** `.swarm/events.jsonl`, only the knowledge-application gate lines (warn, deny, *_clear). */
  gateEvents: LegacyLog;
  /** knowledge-counter-baseline.json (folded history of knowledge-events.jsonl); {} when absent or corrupt, as the plugin treats it. */
  baseline: Record<string, unknown>;
  linkRedirected: boolean;
}

interface LegacyPaths {
  swarmDir: string;
  /** The link dir when `.swarm/link.json` is active, else `swarmDir`. */
  knowledgeDir: string;
  /** Read even where a symlink leads out of the project and knowledge folder (the operator allowed it). */
  allowSymlinksOutside?: boolean;
}

async function readLog(file: string, confineTo: readonly string[] | undefined, keep: (value: Rec) => boolean = () => true): Promise<LegacyLog> {
  const lines: LegacyLine[] = [];
  const read = await readJsonl(file, { confineTo, onLine: (l) => keep(l.value) && lines.push({ line: l.line, value: l.value }) });
  return { file, read, lines };
}

const isGateEvent = (value: Rec) => typeof value.event === 'string' && value.event.startsWith('knowledge_application_gate_');

async function readBaseline(file: string, projectDir: string, confineTo: readonly string[] | undefined): Promise<Record<string, unknown>> {
  const read = await readViewDocument('knowledge-counter-baseline', file, { projectDir, confineTo });
  return read.value && !Array.isArray(read.value.items) ? read.value : {};
}

export async function readLegacySources(paths: LegacyPaths): Promise<LegacySources> {
  // Read only inside the project and the (link-aware) knowledge folder (stores/containment.ts).
  const roots = paths.allowSymlinksOutside ? undefined : [path.dirname(paths.swarmDir), paths.knowledgeDir];
  const [events, application, unacknowledged, gateEvents, baseline] = await Promise.all([
    readLog(path.join(paths.knowledgeDir, LEGACY_FILES.events), roots),
    readLog(path.join(paths.knowledgeDir, LEGACY_FILES.application), roots),
    readLog(path.join(paths.swarmDir, LEGACY_FILES.unacknowledged), roots),
    readLog(path.join(paths.swarmDir, 'events.jsonl'), roots, isGateEvent),
    readBaseline(path.join(paths.knowledgeDir, 'knowledge-counter-baseline.json'), path.dirname(paths.swarmDir), roots),
  ]);
  return { events, application, unacknowledged, gateEvents, baseline, linkRedirected: path.resolve(paths.knowledgeDir) !== path.resolve(paths.swarmDir) };
}

/** `knowledge_application_gate_warn` lines per entry id (the released plugin logs warnings, never denials). */
export function gateWarningsByEntry(gateEvents: LegacyLog): Map<string, number> {
  const warnings = new Map<string, number>();
  for (const { value } of gateEvents.lines) {
    if (value.event !== 'knowledge_application_gate_warn' || !Array.isArray(value.unacknowledged_critical_ids)) continue;
    for (const id of new Set(value.unacknowledged_critical_ids)) if (typeof id === 'string') warnings.set(id, (warnings.get(id) ?? 0) + 1);
  }
  return warnings;
}

/** Highest logged denial count per entry id from `knowledge_application_gate_deny` lines. */
export function denialsByEntry(gateEvents: LegacyLog): Map<string, number> {
  const denials = new Map<string, number>();
  for (const { value } of gateEvents.lines) {
    if (value.event !== 'knowledge_application_gate_deny' || !Array.isArray(value.entry_ids)) continue;
    const count = typeof value.denial_count === 'number' ? value.denial_count : 1;
    for (const id of value.entry_ids) if (typeof id === 'string') denials.set(id, Math.max(denials.get(id) ?? 0, count));
  }
  return denials;
}
