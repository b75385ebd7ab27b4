import fs from 'node:fs';
import path from 'node:path';
import { generateDemoWorkspace, DEMO_GENERATOR_VERSION } from './generate';

export interface DemoLocation {
  projectDir: string;
  hiveDir: string;
}

/**
 * The demo workspace lives in the console's user-data folder and is generated once (seeded,
 * deterministic). A version marker regenerates it when the generator changes.
 */
export function ensureDemoWorkspace(userDataDir: string): DemoLocation {
  const root = path.join(userDataDir, 'demo');
  const location = { projectDir: path.join(root, 'billing-api'), hiveDir: path.join(root, 'hive-data') };
  const marker = path.join(root, '.generated.json');
  let current: { version?: number } = {};
  try {
    current = JSON.parse(fs.readFileSync(marker, 'utf8'));
  } catch {
    // absent or unreadable: generate below
  }
  if (current.version !== DEMO_GENERATOR_VERSION) {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    generateDemoWorkspace({ projectDir: location.projectDir, hiveDir: location.hiveDir, seed: 42 });
    fs.writeFileSync(marker, JSON.stringify({ version: DEMO_GENERATOR_VERSION, generatedAt: new Date().toISOString() }) + '\n');
  }
  return location;
}
