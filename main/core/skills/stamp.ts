import path from 'node:path';

export interface StampTarget {
  tier: 'swarm' | 'link' | 'hive';
  /** The JSONL store file. */
  file: string;
  /** The directory whose plugin lock covers the file (docs/plugin-formats.md#locks). */
  lockDir: string;
}

export interface StampOutcome {
  tier: StampTarget['tier'];
  file: string;
  /** Ids whose lines were rewritten in this file. */
  stampedIds: string[];
  /** Lines rewritten (an id may appear on more than one line). */
  lines: number;
  /** Why nothing was written here, when nothing was. */
  note: string | null;
}

const idOf = (line: string): string | null => {
  try {
    const value = JSON.parse(line);
    return value && typeof value === 'object' && typeof value.id === 'string' ? value.id : null;
  } catch {
    return null;
  }
};

const parses = (line: string): boolean => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

/**
 * Non-blank lines that do not parse. The plugin's rewrite rebuilds the file from parsed entries
 * and so drops them (docs/plugin-formats.md#jsonl-format); the console keeps them byte for byte,
 * and the apply preview says how many.
 */
export function unparseableLines(bytes: Buffer): number {
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !parses(line)).length;
}

/** Whether any parseable line of the store carries one of the ids (the plugin rewrites only such a store). */
export function holdsAnyId(bytes: Buffer, ids: readonly string[]): boolean {
  const wanted = new Set(ids);
  return bytes
    .toString('utf8')
    .split('\n')
    .some((line) => {
      const id = line.trim() ? idOf(line) : null;
      return id !== null && wanted.has(id);
    });
}

/**
 * The store's bytes with `generated_skill_slug`, `generated_skill_path` and `updated_at` set on
 * every line whose id is listed, as the plugin's stampSourceEntries does. Every other line,
 * including unparseable ones, stays byte for byte; the line terminators are kept. A final line
 * without its `\n` is stamped too: the plugin reads it (its readers skip only what does not
 * parse) and stamps it, and every rewrite ends the file with `\n`
 * (docs/plugin-formats.md#jsonl-format, #second-process-writes rule 6). Under the store's lock
 * no plugin append is in flight, so such a line is complete. Pure: the write itself goes
 * through the human-only write protocol, under the store's lock.
 */
export function stampBytes(bytes: Buffer, ids: readonly string[], slug: string, skillPath: string, now: Date): { bytes: Buffer; stampedIds: string[]; lines: number } {
  const wanted = new Set(ids);
  const parts = bytes.toString('utf8').split(/(\r?\n)/);
  const stamped = new Set<string>();
  let lines = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i] as string;
    const id = line.trim() ? idOf(line) : null;
    if (id === null || !wanted.has(id)) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    entry.generated_skill_slug = slug;
    entry.generated_skill_path = skillPath;
    entry.updated_at = now.toISOString();
    parts[i] = JSON.stringify(entry);
    stamped.add(id);
    lines++;
  }
  if (lines === 0) return { bytes, stampedIds: [], lines: 0 };
  // A rewrite ends with a newline, as the plugin's does; the last line's bytes stay as they were.
  if ((parts[parts.length - 1] as string) !== '') parts.push('\n');
  return { bytes: Buffer.from(parts.join(''), 'utf8'), stampedIds: [...stamped], lines };
}

export function stampTargets(paths: { swarmDir: string; knowledgeDir: string; hiveDir: string }): StampTarget[] {
  const linked = path.resolve(paths.knowledgeDir) !== path.resolve(paths.swarmDir);
  return [
    { tier: linked ? 'link' : 'swarm', file: path.join(paths.knowledgeDir, 'knowledge.jsonl'), lockDir: paths.knowledgeDir },
    { tier: 'hive', file: path.join(paths.hiveDir, 'shared-learnings.jsonl'), lockDir: paths.hiveDir },
  ];
}
