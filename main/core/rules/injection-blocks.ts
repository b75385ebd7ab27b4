import { entryConfidence, entryLesson, entryPriority, str, strList, type RawEntry } from './entry-fields';

/** Text rendering of the two injected blocks, with the plugin's whole-record trimming to a char budget. */

/** The plugin's `sanitizeLessonForContext`: drop control/zero-width/bidi chars, break fences, block `system:`. */
export function sanitizeForContext(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code === 9 || code === 10 || code === 13 || (code > 31 && code !== 127)) out += char;
  }
  return out
    .replace(/[\u200B-\u200D\uFEFF]/g, '')
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(/```/g, '` ` `')
    .replace(/^system\s*:/gim, '[BLOCKED]:');
}

interface BlockResult {
  text: string | null;
  includedIds: string[];
  cutIds: string[];
}

const firstItem = (entry: RawEntry, field: string, max: number): string => {
  const first = strList(entry[field])[0];
  return first ? sanitizeForContext(first).slice(0, max) : '';
};

/** `<swarm_knowledge_directives>`: one YAML-ish record per directive; whole records are dropped from the end to fit. */
export function buildDirectiveBlock(entries: readonly RawEntry[], charBudget: number, maxDisplay: number): BlockResult {
  if (entries.length === 0) return { text: null, includedIds: [], cutIds: [] };
  const records = entries.map((entry) => {
    const lines = [
      `- id: ${str(entry.id) ?? ''}`,
      `  confidence: ${entryConfidence(entry).toFixed(2)}`,
      `  priority: ${entryPriority(entry)}`,
      `  lesson: ${sanitizeForContext(entryLesson(entry)).slice(0, maxDisplay)}`,
    ];
    const trigger = firstItem(entry, 'triggers', maxDisplay);
    const required = firstItem(entry, 'required_actions', maxDisplay);
    const forbidden = firstItem(entry, 'forbidden_actions', maxDisplay);
    const verification = firstItem(entry, 'verification_checks', maxDisplay);
    const skill = str(entry.generated_skill_path);
    if (trigger) lines.push(`  trigger: ${trigger}`);
    if (required) lines.push(`  required: ${required}`);
    if (forbidden) lines.push(`  forbidden: ${forbidden}`);
    if (skill) lines.push(`  skill: file:${sanitizeForContext(skill)}`);
    if (verification) lines.push(`  verification: ${verification}`);
    return { id: str(entry.id) ?? '', lines };
  });
  const render = (count: number) =>
    ['<swarm_knowledge_directives>', ...records.slice(0, count).flatMap((r) => r.lines), '</swarm_knowledge_directives>'].join('\n');
  let count = records.length;
  while (count > 0 && render(count).length > charBudget) count--;
  const ids = records.map((r) => r.id);
  return { text: count > 0 ? render(count) : null, includedIds: ids.slice(0, count), cutIds: ids.slice(count) };
}

const LESSONS_HEADER = '\u{1F4DA} Lessons:\n';

/** The informational lesson list: `[S]`/`[H]`, the truncated lesson, the source project for foreign hive lessons, ✓/✓✓. */
export function buildLessonBlock(entries: readonly RawEntry[], charBudget: number, maxDisplay: number, projectName: string | undefined): BlockResult {
  if (entries.length === 0) return { text: null, includedIds: [], cutIds: [] };
  const lines = entries.map((entry) => {
    const tier = entry.tier === 'hive' ? '[H]' : '[S]';
    const confirmed = Array.isArray(entry.confirmed_by) ? entry.confirmed_by.length : 0;
    const mark = confirmed >= 3 ? ' \u2713\u2713' : confirmed >= 1 ? ' \u2713' : '';
    let lesson = sanitizeForContext(entryLesson(entry));
    if (lesson.length > maxDisplay) lesson = `${lesson.slice(0, maxDisplay)}\u2026`;
    const source = entry.tier === 'hive' ? str(entry.source_project) : undefined;
    const from = source !== undefined && source !== projectName ? ` (from: ${sanitizeForContext(source)})` : '';
    return `${tier} ${lesson}${from}${mark}`;
  });
  const render = (count: number) => `${LESSONS_HEADER}\n${lines.slice(0, count).join('\n')}`;
  let count = lines.length;
  while (count > 0 && render(count).length > charBudget) count--;
  const ids = entries.map((e) => str(e.id) ?? '');
  return { text: count > 0 ? render(count) : null, includedIds: ids.slice(0, count), cutIds: ids.slice(count) };
}
