import fs from 'node:fs';
import path from 'node:path';
import { replaceFile } from '../human/write/atomic-write';
import { withStoreLock } from '../human/write/store-lock';

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
 * Sets `generated_skill_slug`, `generated_skill_path` and `updated_at` on every line whose id
 * is listed, as the plugin's stampSourceEntries does, under the store's lock. Every other
 * line, including unparseable ones, stays byte for byte; the line terminators are kept.
 */
export async function stampStore(target: StampTarget, ids: readonly string[], slug: string, skillPath: string, now: Date, lockWaitMs?: number): Promise<StampOutcome> {
  const base = { tier: target.tier, file: target.file };
  if (!fs.existsSync(target.file)) return { ...base, stampedIds: [], lines: 0, note: 'store file does not exist' };
  const wanted = new Set(ids);
  return withStoreLock(
    target.lockDir,
    async (lock) => {
      const text = fs.readFileSync(target.file, 'utf8');
      const parts = text.split(/(\r?\n)/);
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
      if (lines === 0) return { ...base, stampedIds: [], lines: 0, note: 'none of the source ids is in this store' };
      await replaceFile(target.file, Buffer.from(parts.join(''), 'utf8'), lock);
      return { ...base, stampedIds: [...stamped], lines, note: null };
    },
    lockWaitMs === undefined ? {} : { waitMs: lockWaitMs },
  );
}

export function stampTargets(paths: { swarmDir: string; knowledgeDir: string; hiveDir: string }): StampTarget[] {
  const linked = path.resolve(paths.knowledgeDir) !== path.resolve(paths.swarmDir);
  return [
    { tier: linked ? 'link' : 'swarm', file: path.join(paths.knowledgeDir, 'knowledge.jsonl'), lockDir: paths.knowledgeDir },
    { tier: 'hive', file: path.join(paths.hiveDir, 'shared-learnings.jsonl'), lockDir: paths.hiveDir },
  ];
}
