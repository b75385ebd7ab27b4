/**
 * THE words for the concepts a newcomer meets first (issue 19 item 5), worded from the plugin's
 * rules (docs/plugin-formats.md). The glossary sheet lists them and every tooltip on these terms
 * (components/Term.tsx) reads from here, so a term means the same thing wherever it appears.
 */
export interface GlossaryTerm {
  id: string;
  term: string;
  text: string;
  /** Where in docs/plugin-formats.md the rule comes from. */
  source: string;
}

export const GLOSSARY = [
  {
    id: 'tier',
    term: 'Tier',
    text: 'Which store holds a lesson: swarm (this project’s .swarm/knowledge.jsonl), hive (the cross-project shared-learnings.jsonl in the plugin’s data folder) or link (the store a linked worktree shares through links/<id>/).',
    source: 'store-paths',
  },
  {
    id: 'collection',
    term: 'Collection',
    text: 'Which file of a tier a lesson sits in: active (the store the plugin retrieves from), rejected (refused at creation), quarantined (moved out by /swarm knowledge quarantine) or unactionable (the curator found no action in it). Only active lessons are shown to agents.',
    source: 'other-swarm-family-files',
  },
  {
    id: 'markers',
    term: 'Markers',
    text: 'What the console reads off a lesson’s counters: evergreen, low utility, and violations in the last week. The plugin declares the thresholds but writes no marker itself.',
    source: 'lifecycle',
  },
  {
    id: 'archives-in',
    term: 'Archives in N phases',
    text: 'The sweep at every successful phase_complete adds 1 to phases_alive of each entry that is not archived or promoted; past max_phases (default 10) the entry is archived. Non-promoted todo entries past todo_max_phases (3) are deleted instead.',
    source: 'caps-and-ttl-archive',
  },
  {
    id: 'answered',
    term: 'Answered',
    text: 'Answered: displays that got any answer — applied, ignored, N/A, contradicted or violated — from any source, each display counted once, so never more than the displays. An answer that names no recorded display is counted apart. This is not the plugin’s acknowledged_count.',
    source: 'legacy-receipts',
  },
  {
    id: 'acknowledged',
    term: 'Acknowledged',
    text: 'Acknowledged: the plugin’s effective acknowledged_count (docs/plugin-formats.md#effective-counters) — explicit acknowledgements only: acknowledged events, and N/A markers (knowledge-application.jsonl stores them as "acknowledged"), over the counter baseline and the logs, every repeat counted. Applied, ignored or violated answers are not acknowledgements.',
    source: 'effective-counters',
  },
  {
    id: 'nonterminal-release',
    term: 'Nonterminal release',
    text: 'A gate release (denial limit, staleness, session reset) lets a blocked tool call through without an answer. It is nonterminal: the directive stays unanswered, and a release is never counted as an answer or as application.',
    source: 'v2-receipts',
  },
  {
    id: 'evergreen',
    term: 'Evergreen',
    text: 'Confidence at or above evergreen_confidence (0.9) and utility at or above evergreen_utility (0.8). Utility is the console’s own figure, min(1, (applied + succeeded after shown) / shown) over the effective counters, once shown min_retrievals_for_utility (3) times: the plugin declares the thresholds but never writes a utility score.',
    source: 'lifecycle',
  },
  {
    id: 'low-utility',
    term: 'Low utility',
    text: 'Utility at or below low_utility_threshold (0.3) after at least 5 showings (utility as under Evergreen). The plugin declares the threshold but acts on it nowhere: a marker for review, not a plugin state.',
    source: 'lifecycle',
  },
  {
    id: 'blast-radius',
    term: 'Blast radius',
    text: 'What a human-only write reaches beyond the lines it rewrites, shown in its preview before anyone confirms: the generated skills citing the entries (the plugin stamps generated_skill_slug on their sources), the projects that confirmed them, link stores holding the same id, and the receipts and events that mention them.',
    source: 'hive-quarantine',
  },
  {
    id: 'stale-skill',
    term: 'Stale skill',
    text: 'An active generated skill with a stale.marker in its folder: the plugin writes one when knowledge_archive archives a source entry of the skill (and a retired.marker instead when all its sources are gone). The Skills view lists a skill as stale by that marker alone, as the plugin does.',
    source: 'skill-layout',
  },
  {
    id: 'derived',
    term: 'Derived from legacy logs',
    text: 'Derived from legacy logs: the released plugin records displays and answers without the directive’s priority or an obligation, so the priority (and "ack required" for a critical directive) comes from its knowledge entry, displays from retrieved events and legacy "shown" lines, answers from legacy markers, and phase completion from outcome events.',
    source: 'legacy-receipts',
  },
  {
    id: 'forgotten',
    term: 'Forgotten lesson',
    text: 'An entry that left the active store of its tier without a person quarantining it in the console: evicted past the plugin’s cap (swarm_max_entries 100, hive_max_entries 200), archived in place (the TTL sweep after max_phases, or knowledge_archive), deleted by the sweep of TODO entries, or moved to a side file. The plugin keeps no copy; the console’s history keeps its last version, and why it left where a store says so (otherwise the reason is worded as the console’s inference).',
    source: 'caps-and-ttl-archive',
  },
  {
    id: 'history-restore',
    term: 'Restore (from history)',
    text: 'A human-only write: the forgotten entry’s last version, as history recorded it, is appended to its tier’s active store under the plugin’s lock, backed up first and verified after, as the plugin’s own restore appends (no dedup, no cap check). A store at its cap may evict it again when the plugin next applies the cap; the preview says so and names the entry the plugin would evict first.',
    source: 'swarm-quarantine-and-restore',
  },
] as const satisfies readonly GlossaryTerm[];

export type GlossaryId = (typeof GLOSSARY)[number]['id'];

export function glossary(id: GlossaryId): GlossaryTerm {
  return GLOSSARY.find((t) => t.id === id) as GlossaryTerm;
}
