import type { CuratorOverview, QueueItem, SkillItem } from '../../../shared/contract/skills';
import { QUEUE_KINDS } from '../../../shared/contract/skills';
import { list, s } from '../skills/skill-logs';
import { fingerprint } from './review-dismissals';

interface QueueEntry {
  tier: string;
  collection: string;
  value: Record<string, unknown>;
}

type Command = QueueItem['command'];

/** The human-only command that carries out a curator recommendation on its entry, where one exists. */
export function commandFor(action: string, entryId: string | null, tier: string | null, collection: string | null): Command {
  if (!entryId || !tier || collection !== 'active') return null;
  if (action === 'promote' && tier !== 'hive') return { preview: 'swarm.promote.preview', label: 'Promote to the hive', id: entryId };
  // Archive means archive (status archived, restorable), never the far stronger quarantine. The
  // console archives project entries only: a hive entry's archive recommendation can be dismissed.
  if (action === 'archive') return tier === 'hive' ? null : { preview: 'swarm.archive.preview', label: 'Archive (status archived; Restore brings it back)', id: entryId };
  if (action === 'flag_contradiction') {
    const label = 'Quarantine the contradicted entry';
    return tier === 'hive' ? { preview: 'hive.quarantine.preview', label, id: entryId } : { preview: 'swarm.quarantine.preview', label, id: entryId };
  }
  return null;
}

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * One list of everything waiting for a person (issue 12, review queue). Repeated denials come
 * from the live bridge and are added by the view from `live.counters`. `decisions` lists the
 * human-only commands that exist for drafts; items without one are shown, not offered.
 */
export function reviewQueue(input: { skills: SkillItem[]; curator: CuratorOverview; entries: Iterable<QueueEntry>; decisions: ('approve' | 'reject')[] }): { items: QueueItem[]; counts: Record<string, number> } {
  const items: QueueItem[] = [];
  for (const skill of input.skills) {
    if ((skill.kind !== 'draft' && skill.kind !== 'motif') || skill.rejected) continue;
    items.push({
      key: `skill:${skill.slug}`,
      kind: 'skill_draft',
      title: `${skill.kind === 'motif' ? 'Motif proposal' : 'Skill draft'} ${skill.slug}: ${clip(skill.title, 120)}`,
      detail: skill.kind === 'motif' ? 'activates without stamping any entry' : `${skill.sourceIds.length} source entr${skill.sourceIds.length === 1 ? 'y' : 'ies'}${skill.hasActive ? '; replaces an active skill' : ''}; ${skill.evalCases} eval ${skill.evalCases === 1 ? 'case' : 'cases'}`,
      at: skill.generatedAt,
      open: { view: 'skills', slug: skill.slug, entryId: null, tier: null },
      actions: input.decisions,
      command: null,
    });
  }
  const flaggedHive = new Set<string>();
  for (const rec of input.curator.summary.recommendations) {
    if (rec.applied !== 'not_applied') continue;
    if (rec.action === 'flag_contradiction' && rec.entry?.tier === 'hive' && rec.entryId) flaggedHive.add(rec.entryId);
    const command = commandFor(rec.action, rec.entryId, rec.entry?.tier ?? null, rec.entry ? (/\((\w+)\)$/.exec(rec.entry.status)?.[1] ?? 'active') : null);
    items.push({
      // Without a command it can only be dismissed: the key then fingerprints what was reviewed.
      key: command ? `rec:${rec.index}` : `rec:${rec.index}@${fingerprint([rec.action, rec.entryId, rec.reason, rec.appliedEvidence, input.curator.summary.lastUpdated])}`,
      kind: 'curator_recommendation',
      title: `Curator: ${rec.action.replace('_', ' ')} ${rec.entryId ?? ''}`.trim(),
      detail: clip(`${rec.reason} — ${rec.appliedEvidence}`),
      at: input.curator.summary.lastUpdated,
      open: { view: 'knowledge', slug: null, entryId: rec.entryId, tier: rec.entry?.tier ?? null },
      actions: command ? ['approve'] : [],
      command,
    });
  }
  for (const e of input.entries) {
    const id = s(e.value.id) ?? '';
    const lesson = clip(s(e.value.lesson) ?? '');
    const at = s(e.value.rejected_at) ?? s(e.value.updated_at) ?? s(e.value.created_at);
    if (e.collection === 'rejected') {
      items.push({ key: `rejected:${e.tier}:${id}@${fingerprint(e.value)}`, kind: 'rejected_lesson', title: lesson || id, detail: clip(s(e.value.rejection_reason) ?? s(e.value.reason) ?? 'rejected by validation'), at, open: { view: 'knowledge', slug: null, entryId: id, tier: e.tier }, actions: [], command: null });
    } else if (e.collection === 'unactionable') {
      items.push({ key: `unactionable:${e.tier}:${id}@${fingerprint(e.value)}`, kind: 'unactionable_lesson', title: lesson || id, detail: clip(s(e.value.actionability_reason) ?? s(e.value.reason) ?? 'not actionable as written'), at, open: { view: 'knowledge', slug: null, entryId: id, tier: e.tier }, actions: [], command: null });
    } else if (e.tier === 'hive' && e.collection === 'active') {
      const tag = list(e.value.tags).find((t) => t.startsWith('contradiction:'));
      if (tag || flaggedHive.has(id)) {
        items.push({ key: `hive:${id}`, kind: 'hive_contradiction', title: lesson || id, detail: tag ? `curator flagged: ${clip(tag.slice('contradiction:'.length))}` : 'named by an unapplied flag_contradiction recommendation', at, open: { view: 'knowledge', slug: null, entryId: id, tier: 'hive' }, actions: ['approve'], command: { preview: 'hive.quarantine.preview', label: 'Quarantine the contradicted hive entry', id } });
      }
    }
  }
  const counts = Object.fromEntries(QUEUE_KINDS.map((k) => [k, items.filter((i) => i.kind === k).length]));
  return { items, counts };
}
