import fs from 'node:fs';
import path from 'node:path';
import { generateDemoWorkspace, DEMO_GENERATOR_VERSION } from './generate';
import { generateReleasedDemo, RELEASED_DEMO_VERSION, releasedDemoLocation, type ReleasedDemoLocation } from './released/generate-released';

export interface DemoLocation {
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

/** The demo's folders under `<userData>/demo`. */
export function demoLocation(userDataDir: string): DemoLocation {
  const root = path.join(userDataDir, 'demo');
  return { projectDir: path.join(root, 'billing-api'), hiveDir: path.join(root, 'hive-data'), released: releasedDemoLocation(root) };
}

const markerOf = (userDataDir: string) => path.join(userDataDir, 'demo', '.generated.json');

/** Whether the demo must be (re)generated: absent, from another generator version, or anchored on another day. */
export function demoIsStale(userDataDir: string, now: number): boolean {
  let current: { version?: number; released?: number; now?: number } = {};
  try {
    current = JSON.parse(fs.readFileSync(markerOf(userDataDir), 'utf8'));
  } catch {
    // absent or unreadable: generate
  }
  const stale = typeof current.now !== 'number' || now - current.now > MAX_ANCHOR_AGE_MS || now < current.now;
  return current.version !== DEMO_GENERATOR_VERSION || current.released !== RELEASED_DEMO_VERSION || stale;
}

/** Writes the demo's files afresh (seeded, anchored on `now`); the marker is written by `markDemoGenerated`. */
export function generateDemo(userDataDir: string, now: number): DemoLocation {
  const location = demoLocation(userDataDir);
  const root = path.join(userDataDir, 'demo');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  generateDemoWorkspace({ projectDir: location.projectDir, hiveDir: location.hiveDir, seed: DEMO_SEED, now });
  generateReleasedDemo(root, DEMO_SEED, now);
  return location;
}

/** The demo is complete: later starts on the same day reuse it. */
export function markDemoGenerated(userDataDir: string, now: number): void {
  fs.writeFileSync(markerOf(userDataDir), JSON.stringify({ version: DEMO_GENERATOR_VERSION, released: RELEASED_DEMO_VERSION, now, generatedAt: new Date(now).toISOString() }) + '\n');
}

export const DEMO_SEED = 42;

/**
 * The demo workspace lives in the console's user-data folder and is generated once (seeded,
 * deterministic, anchored on the current time). A version marker regenerates it when the
 * generator changes, and a stale anchor regenerates it on the next day. (The hosts use
 * week/ensure-demo-week.ts, which also records the scripted week into the demo's history.)
 */
export function ensureDemoWorkspace(userDataDir: string, now: number = Date.now()): DemoLocation {
  if (!demoIsStale(userDataDir, now)) return demoLocation(userDataDir);
  const location = generateDemo(userDataDir, now);
  markDemoGenerated(userDataDir, now);
  return location;
}
