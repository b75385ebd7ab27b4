/**
 * Field readers for the skill and curator logs (lenient: a wrong type reads as absent). The files
 * themselves are read through `stores/view-reads.ts`.
 */
export const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
export const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The usage log's verdicts, with the legacy `violation` read as `violated` (docs/plugin-formats.md#skill-usage-log). */
export const usageVerdict = (v: unknown): string | null => (v === 'violation' ? 'violated' : s(v));

export const slugOfSkillPath = (skillPath: unknown): string | null => {
  const match = /(?:^|\/)\.opencode\/skills\/generated\/([^/]+)\/SKILL\.md$/.exec(String(skillPath ?? '').replace(/\\/g, '/'));
  return match ? (match[1] as string) : null;
};
