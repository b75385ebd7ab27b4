import type { RecordChecker } from './schemas/common';
import * as k from './schemas/knowledge';
import * as ev from './schemas/events';
import * as sk from './schemas/skills';
import * as rc from './schemas/receipts';
import * as misc from './schemas/misc';

/**
 * Every store the plugin writes that the console reads, with a stable key.
 *
 * Roots: `project` = the worktree (files under `.swarm/` and `.opencode/`); `knowledge` = the
 * link-aware knowledge-family dir (`<project>/.swarm`, or `<dataDir>/links/<linkId>` while
 * linked); `hive` = the plugin's `<dataDir>`. `pattern` is relative to the root; `*` matches one
 * path segment. Names containing `.tmp` are the plugin's temp files and never match.
 *
 * Table: where the index keeps the records — `entries` (knowledge entries of every tier,
 * including rejected / quarantined / unactionable), `events`, `receipts`, or `records`.
 */
export type StoreRoot = 'project' | 'knowledge' | 'hive';
export type StoreFormat = 'jsonl' | 'json' | 'markdown' | 'text';
export type StoreTable = 'entries' | 'events' | 'receipts' | 'records';
export type StoreTier = 'swarm' | 'hive' | 'link';
export type EntryCollection = 'active' | 'rejected' | 'quarantined' | 'unactionable';

export interface StoreDef {
  key: string;
  label: string;
  root: StoreRoot;
  pattern: string;
  format: StoreFormat;
  table: StoreTable;
  check: RecordChecker;
  /**
   * Field whose repeated value is a `duplicate_id` defect (on the second occurrence). Not set for
   * event logs: their ids would have to be held for millions of lines, and a repeated event id
   * changes nothing the console shows.
   */
  idField?: string;
  /** For `entries` stores. */
  collection?: EntryCollection;
  /** Marks stores the plugin does not have yet (design doc / proposed formats). */
  provenance: 'snapshot' | 'proposed' | 'legacy';
}

const def = (d: Omit<StoreDef, 'provenance'> & { provenance?: StoreDef['provenance'] }): StoreDef => ({ provenance: 'snapshot', ...d });

export const STORES: readonly StoreDef[] = [
  // Knowledge family (link-redirected).
  def({ key: 'knowledge', label: 'Swarm knowledge', root: 'knowledge', pattern: 'knowledge.jsonl', format: 'jsonl', table: 'entries', collection: 'active', check: k.checkSwarmEntry, idField: 'id' }),
  def({ key: 'knowledge-rejected', label: 'Rejected lessons', root: 'knowledge', pattern: 'knowledge-rejected.jsonl', format: 'jsonl', table: 'entries', collection: 'rejected', check: k.checkRejectedLesson, idField: 'id' }),
  def({ key: 'knowledge-quarantined', label: 'Quarantined entries', root: 'knowledge', pattern: 'knowledge-quarantined.jsonl', format: 'jsonl', table: 'entries', collection: 'quarantined', check: k.checkQuarantinedEntry, idField: 'id' }),
  def({ key: 'knowledge-unactionable', label: 'Unactionable queue', root: 'knowledge', pattern: 'knowledge-unactionable.jsonl', format: 'jsonl', table: 'entries', collection: 'unactionable', check: k.checkUnactionableEntry, idField: 'id' }),
  def({ key: 'knowledge-retractions', label: 'Retractions', root: 'knowledge', pattern: 'knowledge-retractions.jsonl', format: 'jsonl', table: 'records', check: k.checkRetraction, idField: 'id' }),
  def({ key: 'knowledge-events', label: 'Knowledge events', root: 'knowledge', pattern: 'knowledge-events.jsonl', format: 'jsonl', table: 'events', check: ev.checkKnowledgeEvent }),
  def({ key: 'knowledge-counter-baseline', label: 'Counter baseline', root: 'knowledge', pattern: 'knowledge-counter-baseline.json', format: 'json', table: 'records', check: misc.checkCounterBaseline }),
  def({ key: 'knowledge-application', label: 'Application log (legacy)', root: 'knowledge', pattern: 'knowledge-application.jsonl', format: 'jsonl', table: 'events', check: ev.checkApplicationLog }),

  // Hive (<dataDir>).
  def({ key: 'hive', label: 'Hive knowledge', root: 'hive', pattern: 'shared-learnings.jsonl', format: 'jsonl', table: 'entries', collection: 'active', check: k.checkHiveEntry, idField: 'id' }),
  def({ key: 'hive-rejected', label: 'Hive rejected lessons', root: 'hive', pattern: 'shared-learnings-rejected.jsonl', format: 'jsonl', table: 'entries', collection: 'rejected', check: k.checkRejectedLesson, idField: 'id' }),
  def({ key: 'hive-quarantined', label: 'Hive quarantine sidecar', root: 'hive', pattern: 'shared-learnings-quarantined.jsonl', format: 'jsonl', table: 'entries', collection: 'quarantined', check: k.checkHiveQuarantinedEntry, idField: 'id', provenance: 'proposed' }),
  def({ key: 'hive-events', label: 'Hive events', root: 'hive', pattern: 'shared-knowledge-events.jsonl', format: 'jsonl', table: 'events', check: ev.checkHiveEvent }),
  def({ key: 'hive-legacy', label: 'Legacy hive (migration input)', root: 'hive', pattern: 'hive-knowledge.jsonl', format: 'jsonl', table: 'records', check: misc.checkAnyObject, provenance: 'legacy' }),

  // Per-worktree files (never redirected).
  def({ key: 'events', label: 'Swarm events', root: 'project', pattern: '.swarm/events.jsonl', format: 'jsonl', table: 'events', check: ev.checkSwarmEvent }),
  def({ key: 'unacknowledged-criticals', label: 'Unacknowledged criticals', root: 'project', pattern: '.swarm/unacknowledged-criticals.jsonl', format: 'jsonl', table: 'events', check: ev.checkUnacknowledgedCritical }),
  def({ key: 'insight-candidates', label: 'Insight candidates', root: 'project', pattern: '.swarm/insight-candidates.jsonl', format: 'jsonl', table: 'records', check: k.checkInsightCandidate }),
  def({ key: 'curator-summary', label: 'Curator summary', root: 'project', pattern: '.swarm/curator-summary.json', format: 'json', table: 'records', check: misc.checkCuratorSummary }),
  def({ key: 'link-pointer', label: 'Link pointer', root: 'project', pattern: '.swarm/link.json', format: 'json', table: 'records', check: misc.checkLinkPointer }),
  def({ key: 'skill-improver-quota', label: 'Skill improver quota', root: 'project', pattern: '.swarm/skill-improver-quota.json', format: 'json', table: 'records', check: misc.checkQuota }),
  def({ key: 'knowledge-enrichment-quota', label: 'Enrichment quota', root: 'project', pattern: '.swarm/knowledge-enrichment-quota.json', format: 'json', table: 'records', check: misc.checkQuota }),
  def({ key: 'knowledge-shown', label: 'Shown this phase', root: 'project', pattern: '.swarm/.knowledge-shown.json', format: 'json', table: 'records', check: misc.checkKnowledgeShown }),
  def({ key: 'synonym-map', label: 'Synonym map', root: 'project', pattern: '.swarm/synonym-map.json', format: 'json', table: 'records', check: misc.checkSynonymMap }),
  def({ key: 'verdict-feedback', label: 'Verdict feedback cursor', root: 'project', pattern: '.swarm/verdict-feedback-last-processed.json', format: 'json', table: 'records', check: misc.checkVerdictFeedback }),

  // V2 receipt ledger ([PROPOSED]; never link-redirected).
  def({ key: 'receipts-journal', label: 'Receipt journal (V2)', root: 'project', pattern: '.swarm/knowledge-receipts-v2.jsonl', format: 'jsonl', table: 'receipts', check: rc.checkReceiptJournal, provenance: 'proposed' }),
  def({ key: 'receipts-snapshot', label: 'Receipt snapshot (V2)', root: 'project', pattern: '.swarm/knowledge-receipts-v2.snapshot.json', format: 'json', table: 'records', check: rc.checkReceiptSnapshot, provenance: 'proposed' }),
  def({ key: 'receipts-archive', label: 'Receipt archive (V2)', root: 'project', pattern: '.swarm/knowledge-receipts-v2-archive.jsonl', format: 'jsonl', table: 'receipts', check: rc.checkReceiptArchive, provenance: 'proposed' }),
  def({ key: 'receipts-quarantine', label: 'Receipt quarantine (V2)', root: 'project', pattern: '.swarm/knowledge-receipts-v2-quarantine.jsonl', format: 'jsonl', table: 'receipts', check: rc.checkReceiptQuarantine, provenance: 'proposed' }),

  // Skills.
  def({ key: 'skill-proposals', label: 'Skill proposals', root: 'project', pattern: '.swarm/skills/proposals/*.md', format: 'markdown', table: 'records', check: sk.checkSkillProposal }),
  def({ key: 'skill-evals', label: 'Skill eval fixtures', root: 'project', pattern: '.swarm/skills/evals/*/*.json', format: 'json', table: 'records', check: sk.checkEvalFixture }),
  def({ key: 'skill-candidates', label: 'External skill candidates', root: 'project', pattern: '.swarm/skills/candidates/*.json', format: 'json', table: 'records', check: sk.checkSkillCandidate }),
  def({ key: 'skill-rejected-edits', label: 'Rejected skill edits', root: 'project', pattern: '.swarm/skills/rejected-edits.jsonl', format: 'jsonl', table: 'records', check: sk.checkRejectedEdit }),
  def({ key: 'skill-usage', label: 'Skill usage', root: 'project', pattern: '.swarm/skill-usage.jsonl', format: 'jsonl', table: 'records', check: sk.checkSkillUsage, idField: 'id' }),
  def({ key: 'skill-changelogs', label: 'Skill changelogs', root: 'project', pattern: '.swarm/skill-changelogs/*.jsonl', format: 'jsonl', table: 'records', check: sk.checkSkillChangelog }),
  def({ key: 'skills-generated', label: 'Generated skills', root: 'project', pattern: '.opencode/skills/generated/*/SKILL.md', format: 'markdown', table: 'records', check: sk.checkGeneratedSkill }),
  def({ key: 'skill-retired-markers', label: 'Retired skill markers', root: 'project', pattern: '.opencode/skills/generated/*/retired.marker', format: 'json', table: 'records', check: sk.checkRetiredMarker }),
  def({ key: 'skill-stale-markers', label: 'Stale skill markers', root: 'project', pattern: '.opencode/skills/generated/*/stale.marker', format: 'text', table: 'records', check: misc.checkAnyObject }),
  def({ key: 'skill-improver-proposals', label: 'Skill improver proposals', root: 'project', pattern: '.swarm/skill-improver/proposals/*.md', format: 'markdown', table: 'records', check: sk.checkImproverProposal }),
];

/**
 * Project files the curator panel reads on demand that the index does not keep (one file per
 * phase, read whole when the panel opens). They are read through the same reader, so the same
 * containment, size caps and defect reporting apply.
 */
export const ON_DEMAND_STORES: readonly StoreDef[] = [
  def({ key: 'curator-findings', label: 'Curator findings', root: 'project', pattern: '.swarm/evidence/*/curator-findings.json', format: 'json', table: 'records', check: misc.checkAnyObject }),
  def({ key: 'drift-reports', label: 'Drift reports', root: 'project', pattern: '.swarm/drift-report-phase-*.json', format: 'json', table: 'records', check: misc.checkAnyObject }),
];

const byKey = new Map(STORES.map((s) => [s.key, s]));
const onDemandByKey = new Map(ON_DEMAND_STORES.map((s) => [s.key, s]));

/** A catalogued (indexed) store. */
export function storeDef(key: string): StoreDef | undefined {
  return byKey.get(key);
}

/** A catalogued store or one of the on-demand files (for readers that read a file by key). */
export function readableStoreDef(key: string): StoreDef | undefined {
  return byKey.get(key) ?? onDemandByKey.get(key);
}

/** Key of the pseudo-store listing a local knowledge-family file the plugin ignores while linked. */
export const orphanKey = (fileName: string) => `orphaned:${fileName}`;

/** A regex over root-relative paths (with `/`) for a pattern with `*` segments. */
export function patternRegex(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((seg) => seg.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+'))
    .join('/');
  return new RegExp(`^${source}$`);
}
