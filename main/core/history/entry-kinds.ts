import type { EntryCollection, StoreTier } from '../stores/catalog';

/** Where an entry lives: the active store of its tier, or one of the side files. */
export type EntryKind = 'active' | 'quarantined' | 'unactionable' | 'rejected' | 'hive' | 'link';

export const ACTIVE_KINDS: readonly EntryKind[] = ['active', 'hive', 'link'];
export const isActiveKind = (kind: string): boolean => (ACTIVE_KINDS as readonly string[]).includes(kind);

export function kindOf(collection: EntryCollection, tier: StoreTier): EntryKind {
  if (collection !== 'active') return collection;
  return tier === 'swarm' ? 'active' : tier;
}

/** A side file's name as an operator says it. */
export const SIDE_FILE_WORDS: Record<string, string> = {
  quarantined: 'the quarantine file',
  unactionable: 'the unactionable queue',
  rejected: 'the rejected lessons',
  active: 'the active store',
  hive: 'the hive',
  link: 'the link store',
};
