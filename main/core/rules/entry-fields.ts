/**
 * Defensive accessors over a knowledge entry as read from disk. The stores layer normalises
 * entries, but text from a store is never trusted to have the declared types: every reader
 * here falls back to the plugin's documented default instead of throwing.
 */
export type RawEntry = Readonly<Record<string, unknown>>;

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const strList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export const entryId = (entry: RawEntry): string => str(entry.id) ?? '';
export const entryLesson = (entry: RawEntry): string => str(entry.lesson) ?? '';
export const entryStatus = (entry: RawEntry): string => str(entry.status) ?? 'candidate';
export const entryConfidence = (entry: RawEntry): number => num(entry.confidence) ?? 0;
export const entryScope = (entry: RawEntry): string => str(entry.scope) ?? 'global';
export const entryCategory = (entry: RawEntry): string => str(entry.category) ?? 'other';
export const entryTags = (entry: RawEntry): string[] => strList(entry.tags);

/** Absent priority is treated as `medium` by the plugin. */
export function entryPriority(entry: RawEntry): 'low' | 'medium' | 'high' | 'critical' {
  const value = entry.directive_priority;
  return value === 'low' || value === 'high' || value === 'critical' ? value : 'medium';
}

export const hasExplicitPriority = (entry: RawEntry): boolean => typeof entry.directive_priority === 'string';

const confirmations = (entry: RawEntry): Record<string, unknown>[] =>
  Array.isArray(entry.confirmed_by) ? entry.confirmed_by.filter((c): c is Record<string, unknown> => !!c && typeof c === 'object') : [];

/** Distinct `phase_number`s in `confirmed_by` — what the plugin's promotion and skill gates count. */
export function distinctPhases(entry: RawEntry): number[] {
  const phases = new Set<number>();
  for (const record of confirmations(entry)) {
    const phase = num(record.phase_number);
    if (phase !== undefined) phases.add(phase);
  }
  return [...phases].sort((a, b) => a - b);
}

/** Distinct `project_name`s in `confirmed_by` (hive confirmations are per project). */
export function distinctProjects(entry: RawEntry): string[] {
  const projects = new Set<string>();
  for (const record of confirmations(entry)) {
    const project = str(record.project_name);
    if (project) projects.add(project);
  }
  return [...projects].sort();
}

interface ConfirmationPoint {
  phase: number | null;
  project: string | null;
  at: string | null;
}

/** The confirmations timeline, oldest first (records without a timestamp keep file order at the end). */
export function confirmationTimeline(entry: RawEntry): ConfirmationPoint[] {
  const points = confirmations(entry).map((record) => ({
    phase: num(record.phase_number) ?? null,
    project: str(record.project_name) ?? null,
    at: str(record.confirmed_at) ?? null,
  }));
  return points
    .map((point, index) => ({ point, index }))
    .sort((a, b) => {
      if (a.point.at && b.point.at) return a.point.at < b.point.at ? -1 : a.point.at > b.point.at ? 1 : a.index - b.index;
      if (a.point.at) return -1;
      if (b.point.at) return 1;
      return a.index - b.index;
    })
    .map(({ point }) => point);
}
