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

/**
 * The store's bytes with `generated_skill_slug`, `generated_skill_path` and `updated_at` set on
 * every line whose id is listed, as the plugin's stampSourceEntries does. Every other line,
 * including unparseable ones, stays byte for byte; the line terminators are kept. Pure: the
 * write itself goes through the human-only write protocol, under the store's lock.
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
    // A final line without its newline may still be being appended; leave it alone.
    if (i === parts.length - 1) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    entry.generated_skill_slug = slug;
    entry.generated_skill_path = skillPath;
    entry.updated_at = now.toISOString();
    parts[i] = JSON.stringify(entry);
    stamped.add(id);
    lines++;
  }
  return { bytes: lines === 0 ? bytes : Buffer.from(parts.join(''), 'utf8'), stampedIds: [...stamped], lines };
}

export function stampTargets(paths: { swarmDir: string; knowledgeDir: string; hiveDir: string }): StampTarget[] {
  const linked = path.resolve(paths.knowledgeDir) !== path.resolve(paths.swarmDir);
  return [
    { tier: linked ? 'link' : 'swarm', file: path.join(paths.knowledgeDir, 'knowledge.jsonl'), lockDir: paths.knowledgeDir },
    { tier: 'hive', file: path.join(paths.hiveDir, 'shared-learnings.jsonl'), lockDir: paths.hiveDir },
  ];
}
