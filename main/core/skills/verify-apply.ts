import fs from 'node:fs';
import path from 'node:path';
import { flipStatus, type ApplyResult } from './apply';

const STAMP_FIELDS = ['generated_skill_slug', 'generated_skill_path', 'updated_at'];

const split = (text: string) => text.split(/\r?\n/);

/**
 * Reads back what an apply wrote against the backup taken just before: the SKILL.md is the
 * flipped draft; in each stamped store every line is the same bytes except stamped ones, which
 * differ only by the three stamp fields. Another writer appending meanwhile is tolerated (lines
 * after the backup's last one are not compared).
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
  for (const store of result.stores) {
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
    for (let i = 0; i < a.length - 1; i++) {
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
