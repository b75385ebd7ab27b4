import fs from 'node:fs';
import path from 'node:path';
import { SKILL_SLUG } from '../stores/schemas/skills';

/** The plugin's slug sanitiser (docs/plugin-formats.md#skill-slugs): lower-case, runs outside [a-z0-9-] to `-`, collapse, strip, truncate. */
function sanitizeSlug(raw: string): string {
  return raw
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

export const isValidSlug = (slug: string): boolean => SKILL_SLUG.test(slug);

type SlugCheck = { ok: true; slug: string } | { ok: false; reason: string };

/**
 * The console is stricter than the plugin: the plugin silently sanitises `../x` to `x`, but a
 * person confirming a decision must act on exactly the slug they saw, so any input the
 * sanitiser would change is refused (before any file is touched).
 */
export function checkSlug(raw: string): SlugCheck {
  const clean = sanitizeSlug(raw);
  if (!isValidSlug(clean)) return { ok: false, reason: 'invalid slug' };
  if (clean !== raw) return { ok: false, reason: `invalid slug: ${JSON.stringify(raw.slice(0, 80))} is not a skill slug (the plugin would sanitise it to ${JSON.stringify(clean)})` };
  return { ok: true, slug: clean };
}

const GENERATED_REL = '.opencode/skills/generated';
export const activeRelPath = (slug: string): string => `${GENERATED_REL}/${slug}/SKILL.md`;

interface SkillPaths {
  proposal: string;
  activeDir: string;
  active: string;
  retiredMarker: string;
  staleMarker: string;
  evalsDir: string;
  rejectedEdits: string;
  changelog: string;
}

export function skillPaths(projectDir: string, slug: string): SkillPaths {
  const activeDir = path.join(projectDir, '.opencode', 'skills', 'generated', slug);
  return {
    proposal: path.join(projectDir, '.swarm', 'skills', 'proposals', `${slug}.md`),
    activeDir,
    active: path.join(activeDir, 'SKILL.md'),
    retiredMarker: path.join(activeDir, 'retired.marker'),
    staleMarker: path.join(activeDir, 'stale.marker'),
    evalsDir: path.join(projectDir, '.swarm', 'skills', 'evals', slug),
    rejectedEdits: path.join(projectDir, '.swarm', 'skills', 'rejected-edits.jsonl'),
    changelog: path.join(projectDir, '.swarm', 'skill-changelogs', `${slug}.jsonl`),
  };
}

export const isInside = (root: string, target: string): boolean => target === root || target.startsWith(root + path.sep);

/** realpath of the deepest existing ancestor of `target`, plus the part that does not exist yet. */
function resolveExisting(target: string): string {
  let existing = target;
  const rest: string[] = [];
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  return path.join(fs.realpathSync(existing), ...rest);
}

/**
 * Refuses a write whose target, after following every symlink that exists, leaves
 * `<project>/.opencode/skills/generated/` (or whose generated folder itself leaves the project).
 * Returns null when the target is confined, else the reason.
 */
export function confinementProblem(projectDir: string, target: string): string | null {
  const project = fs.realpathSync(projectDir);
  const root = path.join(project, '.opencode', 'skills', 'generated');
  const realRoot = resolveExisting(root);
  if (!isInside(project, realRoot)) return `${GENERATED_REL} resolves outside the project (${realRoot})`;
  const realTarget = resolveExisting(target);
  if (!isInside(realRoot, realTarget) || realTarget === realRoot) return `target ${path.relative(project, target)} resolves outside ${GENERATED_REL} (${realTarget})`;
  return null;
}

/** A proposal that is a symlink could make the console read (and delete) a file elsewhere. */
export function proposalProblem(projectDir: string, proposal: string): string | null {
  try {
    const info = fs.lstatSync(proposal);
    if (info.isSymbolicLink()) return `proposal ${path.relative(projectDir, proposal)} is a symlink; refusing to follow it`;
    if (!info.isFile()) return `proposal ${path.relative(projectDir, proposal)} is not a file`;
  } catch {
    return null;
  }
  const real = resolveExisting(path.dirname(proposal));
  if (!isInside(fs.realpathSync(projectDir), real)) return `.swarm/skills/proposals resolves outside the project (${real})`;
  return null;
}

