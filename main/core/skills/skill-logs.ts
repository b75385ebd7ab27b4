import fs from 'node:fs';

/** Parseable JSON object lines of a JSONL file, with their 1-based line numbers; a missing file is empty. */
export function readJsonLines(file: string): { line: number; value: Record<string, unknown> }[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: { line: number; value: Record<string, unknown> }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    try {
      const value = JSON.parse(raw);
      if (value && typeof value === 'object' && !Array.isArray(value)) out.push({ line: i + 1, value });
    } catch {
      // skipped, as the plugin skips it; the Stores view reports the defect
    }
  });
  return out;
}

export function readJson(file: string): { value: unknown; problem: string | null; present: boolean } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { value: null, problem: null, present: false };
  }
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, '')), problem: null, present: true };
  } catch (error) {
    return { value: null, problem: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`, present: true };
  }
}

export const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
export const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The usage log's verdicts, with the legacy `violation` read as `violated` (docs/plugin-formats.md#skill-usage-log). */
export const usageVerdict = (v: unknown): string | null => (v === 'violation' ? 'violated' : s(v));

export const slugOfSkillPath = (skillPath: unknown): string | null => {
  const match = /(?:^|\/)\.opencode\/skills\/generated\/([^/]+)\/SKILL\.md$/.exec(String(skillPath ?? '').replace(/\\/g, '/'));
  return match ? (match[1] as string) : null;
};
