import fs from 'node:fs';
import path from 'node:path';

/** Files the plugin redirects to `<dataDir>/links/<linkId>/` while a worktree is linked. */
export const LINK_REDIRECTED_FILES = [
  'knowledge.jsonl',
  'knowledge-rejected.jsonl',
  'knowledge-retractions.jsonl',
  'knowledge-events.jsonl',
  'knowledge-counter-baseline.json',
  'knowledge-quarantined.jsonl',
  'knowledge-unactionable.jsonl',
  'knowledge-application.jsonl',
] as const;

const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** `linkId` is re-sanitised on every read exactly as the plugin does; `null` when nothing usable is left. */
export function sanitizeLinkId(raw: string): string | null {
  const strip = (s: string) => s.replace(/^[-.]+|[-.]+$/g, '');
  let id = raw.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/-{2,}/g, '-');
  id = strip(id);
  id = strip(id.slice(0, 64));
  if (!id) return null;
  if (WINDOWS_DEVICE_NAMES.test(id.split('.')[0] ?? '')) return null;
  return id;
}

export interface LinkResolution {
  /** `.swarm/link.json` exists. */
  pointerPresent: boolean;
  /** Parsed and usable: the knowledge family lives in `dir`. */
  linkId: string | null;
  dir: string | null;
  /** Why a present pointer is ignored (the worktree then counts as unlinked). */
  problem: string | null;
  /** Local knowledge-family files that stay on disk but are ignored while linked. */
  orphanedLocalFiles: string[];
}

export function resolveLink(projectDir: string, dataDir: string): LinkResolution {
  const swarmDir = path.join(projectDir, '.swarm');
  const pointer = path.join(swarmDir, 'link.json');
  let text: string;
  try {
    text = fs.readFileSync(pointer, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? null : `link.json unreadable (${code})`;
    return { pointerPresent: code !== 'ENOENT', linkId: null, dir: null, problem, orphanedLocalFiles: [] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { pointerPresent: true, linkId: null, dir: null, problem: 'link.json is not valid JSON: the plugin treats the worktree as unlinked', orphanedLocalFiles: [] };
  }
  const rawId = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).linkId : undefined;
  if (typeof rawId !== 'string' || rawId.trim() === '') {
    return { pointerPresent: true, linkId: null, dir: null, problem: 'link.json has no linkId: the plugin treats the worktree as unlinked', orphanedLocalFiles: [] };
  }
  const linkId = sanitizeLinkId(rawId);
  if (!linkId) {
    return { pointerPresent: true, linkId: null, dir: null, problem: `linkId "${rawId}" sanitises to nothing usable`, orphanedLocalFiles: [] };
  }
  const orphanedLocalFiles = LINK_REDIRECTED_FILES.filter((file) => fs.existsSync(path.join(swarmDir, file)));
  return { pointerPresent: true, linkId, dir: path.join(dataDir, 'links', linkId), problem: null, orphanedLocalFiles };
}
