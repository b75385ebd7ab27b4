import type { SkillItem } from '../../../../shared/contract/skills';
import { plural, when } from '../../state/format';

interface Proposal {
  generatedAt: string | null;
  body: string;
}

/**
 * Where a skill-improver proposal and the Skills view disagree about stale skills (issue 19 item
 * 3). The view uses the plugin's rule: stale = a stale.marker (docs/plugin-formats.md#skill-layout).
 * A proposal's inventory is the improver's own text (an LLM's or the counters'), so it can name a
 * skill stale that has no marker; then this says so, naming the skills, instead of two counts
 * that silently differ. Null when they agree or the proposal says nothing about stale skills.
 */
export function staleDisagreement(proposal: Proposal | undefined, items: readonly SkillItem[]): string | null {
  if (!proposal) return null;
  const marked = items.filter((i) => i.kind === 'stale');
  const count = /(\d+)\s+stale\b/i.exec(proposal.body);
  const claimed = count ? Number(count[1]) : null;
  const staleLines = proposal.body.split('\n').filter((line) => /\bstale\b/i.test(line));
  const named = items.filter((i) => i.kind === 'active' && staleLines.some((line) => new RegExp(`\\b${i.slug.replace(/[-]/g, '\\-')}\\b`).test(line)));
  if (!named.length && (claimed === null || claimed === marked.length)) return null;
  const what = named.length ? `names ${named.map((i) => i.slug).join(', ')} as stale` : `counts ${plural(claimed ?? 0, 'stale skill')}`;
  return (
    `The skill-improver proposal of ${when(proposal.generatedAt)} ${what}; this list shows ${plural(marked.length, 'stale skill')}. ` +
    'The console lists a skill as stale only when its stale.marker exists, as the plugin does (knowledge_archive writes it when a source entry is archived); ' +
    'the proposal’s inventory is the improver’s own text, not a marker the plugin wrote.'
  );
}
