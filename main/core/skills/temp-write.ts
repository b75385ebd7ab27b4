import fs from 'node:fs';
import path from 'node:path';

/**
 * Temp + rename in the same directory with a `.tmp.` name (docs/plugin-formats.md#second-process-writes, rule 6), for the skill files the
 * plugin itself writes without a lock (SKILL.md, retired.marker). Store files go through the
 * human-only machinery's `replaceFile` under the store lock instead.
 */
export function writeViaTemp(target: string, content: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.tmp.${process.pid}.${Date.now()}.${Math.floor(Math.random() * 1e9)}`);
  try {
    fs.writeFileSync(temp, content);
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
