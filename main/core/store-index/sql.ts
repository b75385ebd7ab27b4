/** Small helpers to build parameterised WHERE clauses; values never reach SQL text. */
export class Where {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  add(clause: string, ...params: unknown[]): this {
    this.clauses.push(clause);
    this.params.push(...params);
    return this;
  }

  in(column: string, values: readonly unknown[] | undefined): this {
    if (values && values.length) this.add(`${column} IN (${values.map(() => '?').join(', ')})`, ...values);
    return this;
  }

  get sql(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join(' AND ')}` : '';
  }
}

/** A LIKE pattern matching `text` literally anywhere (use with `ESCAPE '\\'`). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * An FTS5 query from what an operator types: every word must match, as a prefix; quotes and
 * operators in the input are treated as text, never as FTS syntax.
 */
export function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 16);
  if (!words.length) return null;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : { value };
  } catch {
    return { unparsed: text };
  }
}

/** Rows fetched by `rid IN (...)`, put back in the order of `rids` (the page order). */
export function orderedByRids<T extends { rid: number }>(rids: readonly number[], rows: T[]): T[] {
  const byRid = new Map(rows.map((row) => [row.rid, row]));
  return rids.map((rid) => byRid.get(rid)).filter((row): row is T => row !== undefined);
}
