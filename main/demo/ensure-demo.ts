import fs from 'node:fs';
import path from 'node:path';
import { generateDemoWorkspace, DEMO_GENERATOR_VERSION } from './generate';
import { generateReleasedDemo, RELEASED_DEMO_VERSION, releasedDemoLocation, type ReleasedDemoLocation } from './released/generate-released';

interface DemoLocation {
  projectDir: string;
  hiveDir: string;
  /** The released-plugin-shaped projects (a linked worktree pair) and their own hive. */
  released: ReleasedDemoLocation;
}

/** The hive a demo project belongs to: the released demo's worktrees have their own. */
export function demoHiveFor(location: DemoLocation, projectDir: string): string {
  const released = [location.released.projectDir, location.released.worktreeDir].map((p) => path.resolve(p));
  return released.includes(path.resolve(projectDir)) ? location.released.hiveDir : location.hiveDir;
}

/** Regenerate a demo anchored more than this long ago, so "this week" and "last hour" stay true. */
const MAX_ANCHOR_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The demo workspace lives in the console's user-data folder and is generated once (seeded,
 * deterministic, anchored on the current time). A version marker regenerates it when the
 * generator changes, and a stale anchor regenerates it on the next day.
 */
export function ensureDemoWorkspace(userDataDir: string, now: number = Date.now()): DemoLocation {
  const root = path.join(userDataDir, 'demo');
  const location = { projectDir: path.join(root, 'billing-api'), hiveDir: path.join(root, 'hive-data'), released: releasedDemoLocation(root) };
  const marker = path.join(root, '.generated.json');
  let current: { version?: number; released?: number; now?: number } = {};
  try {
    current = JSON.parse(fs.readFileSync(marker, 'utf8'));
  } catch {
    // absent or unreadable: generate below
  }
  const stale = typeof current.now !== 'number' || now - current.now > MAX_ANCHOR_AGE_MS || now < current.now;
  if (current.version !== DEMO_GENERATOR_VERSION || current.released !== RELEASED_DEMO_VERSION || stale) {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    generateDemoWorkspace({ projectDir: location.projectDir, hiveDir: location.hiveDir, seed: 42, now });
    generateReleasedDemo(root, 42, now);
    fs.writeFileSync(marker, JSON.stringify({ version: DEMO_GENERATOR_VERSION, released: RELEASED_DEMO_VERSION, now, generatedAt: new Date(now).toISOString() }) + '\n');
  }
  return location;
}
