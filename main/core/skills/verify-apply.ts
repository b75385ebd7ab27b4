import fs from 'node:fs';
import path from 'node:path';
import { flipStatus, type ApplyResult } from './apply';

const STAMP_FIELDS = ['generated_skill_slug', 'generated_skill_path', 'updated_at'];

const split = (text: string) => text.split(/\r?\n/);

/**
 * Reads back what an apply wrote against the backup taken just before: the SKILL.md is the
 * flipped draft; in each stamped store every line is the same bytes except stamped ones, which
 * differ only by the three stamp fields. Another writer appending meanwhile is tolerated (lines
 * after the backup's last one are not compared). A final line that had no newline is compared
 * too. And no store may still hold a source id unstamped: a result must never report an id as
 * "in no store" (or a store as done) while a line carrying it was left alone.
 */
export function verifyApply(backupDir: string, files: Record<string, string>, result: ApplyResult, slug: string): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  const backed = (name: string): string | null => {
    try {
      return fs.readFileSync(path.join(backupDir, name), 'utf8');
    } catch {
      return null;
    }
  };
  const live = (file: string): string | null => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  if (result.activated) {
    const draft = backed('proposal.md');
    if (draft === null || live(files['SKILL.md'] as string) !== flipStatus(draft)) problems.push('SKILL.md does not read back as the activated draft');
  }
  if (!result.proposalKept && fs.existsSync(files['proposal.md'] as string)) problems.push('the proposal is still there');
  const sourceIds = new Set([...result.stores.flatMap((s) => s.stampedIds), ...result.notFound]);
  for (const store of result.stores) {
    const now = live(store.file);
    split(now ?? '').forEach((line, i) => {
      let value: Record<string, unknown> | null = null;
      try {
        value = line.trim() ? JSON.parse(line) : null;
      } catch {
        value = null;
      }
      if (value && typeof value.id === 'string' && sourceIds.has(value.id) && value.generated_skill_slug !== slug) problems.push(`${path.basename(store.file)} line ${i + 1} holds the source id ${value.id} but was not stamped`);
    });
    if (store.lines === 0) continue;
    const name = path.basename(store.file) === 'shared-learnings.jsonl' ? 'shared-learnings.jsonl' : 'knowledge.jsonl';
    const before = backed(name);
    const after = live(store.file);
    if (before === null || after === null) {
      problems.push(`${store.file} could not be compared`);
      continue;
    }
    const a = split(before);
    const b = split(after);
    const stampedIds = new Set(store.stampedIds);
    for (let i = 0; i < a.length; i++) {
      // The empty tail after a final newline; a final line without one is compared like any other.
      if (i === a.length - 1 && a[i] === '') continue;
      if (a[i] === b[i]) continue;
      let ok = false;
      try {
        const was = JSON.parse(a[i] as string);
        const now = JSON.parse(b[i] as string);
        ok = stampedIds.has(was.id) && now.generated_skill_slug === slug && Object.keys(was).every((k) => STAMP_FIELDS.includes(k) || JSON.stringify(was[k]) === JSON.stringify(now[k]));
      } catch {
        ok = false;
      }
      if (!ok) problems.push(`${path.basename(store.file)} line ${i + 1} changed beyond the stamp`);
    }
  }
  if (result.rejectedEdit) {
    const lines = split(live(files['rejected-edits.jsonl'] as string) ?? '').filter((l) => l.trim());
    if (lines[lines.length - 1] !== JSON.stringify(result.rejectedEdit)) problems.push('the rejected-edit record does not read back as written');
  }
  return { ok: problems.length === 0, problems };
}
