import fs from 'node:fs';
import path from 'node:path';
import { escapeOf, realLocation } from '../stores/containment';
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

/** Why `target` leads out of `root`, naming the symlink that takes it there (the read side's rule, stores/containment.ts). */
function leavesRoot(projectDir: string, root: string, target: string, what: string): string {
  const escape = escapeOf(target, [root]);
  const link = escape ? path.relative(projectDir, escape.link) || escape.link : path.relative(projectDir, target);
  return `${what}: ${link} is a symlink leading outside ${path.relative(projectDir, root) || 'the project'} (it leads to ${escape?.target ?? realLocation(target)})`;
}

/**
 * Refuses a write whose target, after following every symlink that exists, leaves
 * `<project>/.opencode/skills/generated/` (or whose generated folder itself leaves the project).
 * Returns null when the target is confined, else the reason, naming the link and where it leads.
 */
export function confinementProblem(projectDir: string, target: string): string | null {
  const project = fs.realpathSync(projectDir);
  const root = path.join(project, '.opencode', 'skills', 'generated');
  const realRoot = realLocation(root);
  if (!isInside(project, realRoot)) return leavesRoot(project, project, root, `${GENERATED_REL} resolves outside the project`);
  const realTarget = realLocation(target);
  if (!isInside(realRoot, realTarget) || realTarget === realRoot) return leavesRoot(project, realRoot, target, `target ${path.relative(project, target)} resolves outside ${GENERATED_REL}`);
  return null;
}

/** A proposal that is a symlink could make the console read (and delete) a file elsewhere. */
export function proposalProblem(projectDir: string, proposal: string): string | null {
  try {
    const info = fs.lstatSync(proposal);
    if (info.isSymbolicLink()) return `proposal ${path.relative(projectDir, proposal)} is a symlink (to ${fs.readlinkSync(proposal)}); refusing to follow it`;
    if (!info.isFile()) return `proposal ${path.relative(projectDir, proposal)} is not a file`;
  } catch {
    return null;
  }
  const project = fs.realpathSync(projectDir);
  const real = realLocation(path.dirname(proposal));
  if (!isInside(project, real)) return leavesRoot(project, project, path.dirname(proposal), '.swarm/skills/proposals resolves outside the project');
  return null;
}
