import { num, str, type RawEntry } from '../rules/entry-fields';

/**
 * Triage inboxes: rejected lessons by validation layer and the unactionable queue. Layers
 * follow `validateLesson`: 1 structural, 2 content safety, 3 semantic (quarantine fingerprints
 * are always written as layer 3).
 */
const REJECTION_LAYERS = {
  1: 'structural',
  2: 'content safety',
  3: 'semantic',
} as const;
type RejectionLayerKey = '1' | '2' | '3' | 'unknown';

interface RejectedItem {
  id: string;
  lesson: string;
  reason: string;
  rejectedAt: string | null;
  layer: RejectionLayerKey;
  /** Which file it came from: the project's (or link's) rejected file, or the hive's. */
  store: 'swarm' | 'hive';
  /** A quarantine fingerprint reuses the entry's own id; true when that id is a known entry. */
  quarantineFingerprint: boolean;
}

interface RejectedGroup {
  layer: RejectionLayerKey;
  label: string;
  items: RejectedItem[];
}

function rejectedLayerOf(record: RawEntry): RejectionLayerKey {
  const layer = num(record.rejection_layer) ?? Number(str(record.rejection_layer));
  return layer === 1 || layer === 2 || layer === 3 ? (String(layer) as RejectionLayerKey) : 'unknown';
}

export function groupRejected(
  records: readonly { record: RawEntry; store: 'swarm' | 'hive' }[],
  knownEntryIds: ReadonlySet<string> = new Set(),
): RejectedGroup[] {
  const groups = new Map<RejectionLayerKey, RejectedItem[]>([
    ['1', []],
    ['2', []],
    ['3', []],
    ['unknown', []],
  ]);
  for (const { record, store } of records) {
    const id = str(record.id) ?? '';
    const layer = rejectedLayerOf(record);
    groups.get(layer)!.push({
      id,
      lesson: str(record.lesson) ?? '',
      reason: str(record.rejection_reason) ?? '(no reason recorded)',
      rejectedAt: str(record.rejected_at) ?? null,
      layer,
      store,
      quarantineFingerprint: layer === '3' && knownEntryIds.has(id),
    });
  }
  return [...groups.entries()]
    .filter(([layer, items]) => layer !== 'unknown' || items.length > 0)
    .map(([layer, items]) => ({
      layer,
      label: layer === 'unknown' ? 'unknown layer' : REJECTION_LAYERS[Number(layer) as 1 | 2 | 3],
      // Newest first: that is what an operator triages.
      items: items.sort((a, b) => (b.rejectedAt ?? '').localeCompare(a.rejectedAt ?? '')),
    }));
}

/** Reason codes of `validateActionability`, in words. */
const UNACTIONABLE_REASONS: Record<string, string> = {
  missing_predicate: 'no required/forbidden action, verification check or predicate',
  missing_scope: 'no applies_to_tools or applies_to_agents',
  missing_predicate_and_scope: 'neither a predicate nor a scope',
};

interface UnactionableItem {
  id: string;
  lesson: string;
  reason: string;
  reasonText: string;
  quarantinedAt: string | null;
  retireCandidate: boolean;
  category: string;
}

export function unactionableQueue(records: readonly RawEntry[]): UnactionableItem[] {
  return records
    .map((record) => {
      const reason = str(record.unactionable_reason) ?? 'unknown';
      return {
        id: str(record.id) ?? '',
        lesson: str(record.lesson) ?? '',
        reason,
        reasonText: UNACTIONABLE_REASONS[reason] ?? reason,
        quarantinedAt: str(record.quarantined_at) ?? null,
        retireCandidate: record.retire_candidate === true,
        category: str(record.category) ?? 'other',
      };
    })
    .sort((a, b) => (b.quarantinedAt ?? '').localeCompare(a.quarantinedAt ?? ''));
}
