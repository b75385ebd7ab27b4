/** A value as a person reads it: strings bare, everything else as JSON. */
function show(value: unknown): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Top-level field changes between two versions of an entry (confidence 0.9 → 0.42, status
 * established → archived, counters, triggers…), in the later version's field order.
 */
export function fieldDiff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): { field: string; before: string | null; after: string | null }[] {
  const a = before ?? {};
  const b = after ?? {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .map((field) => ({ field, before: show(a[field]), after: show(b[field]) }))
    .filter((d) => d.before !== d.after);
}

export function parseRecord(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
