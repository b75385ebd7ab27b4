import type { RawEntry } from './entry-fields';

/**
 * The plugin's v2/v3 directive fields (`ActionableDirectiveFields`, docs/plugin-formats.md#directive-fields) in the two
 * roles the console needs them: which make an entry a directive, and which a promotion to the
 * hive carries over. Kept here once so the Directives view and `/swarm promote` never disagree.
 */

/** The fields both roles share, in the order the plugin writes them. */
const ACTION_FIELDS = ['triggers', 'required_actions', 'forbidden_actions', 'verification_checks', 'applies_to_agents', 'applies_to_tools', 'verification_predicate'] as const;

/** An entry with any of these present and non-empty "has v2 directive fields". */
export const DIRECTIVE_MARKER_FIELDS = [...ACTION_FIELDS, 'directive_priority', 'enforcement_mode', 'escalation_history', 'generated_skill_path'] as const;

/** An entry "has v2 directive fields" when any of them is present and non-empty. */
export function isDirective(entry: RawEntry): boolean {
  return DIRECTIVE_MARKER_FIELDS.some((field) => {
    const value = entry[field];
    return Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value !== '';
  });
}

/** Directive fields `/swarm promote --from-swarm` carries over from the swarm entry, in this order (docs/plugin-formats.md#directive-fields, #hive). */
export const PROMOTED_DIRECTIVE_FIELDS = [...ACTION_FIELDS, 'source_refs', 'source_knowledge_ids', 'directive_priority', 'enforcement_mode'] as const;
