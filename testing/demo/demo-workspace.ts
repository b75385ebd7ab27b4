// Helpers shared by the demo generator's tests (not a test file itself).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GENESIS_PREV, canonicalJson, receiptRecordHash } from '../../main/core/rules/canonical-json';
import { generateDemoWorkspace, type DemoOptions } from '../../main/demo/generate';

export type Rec = Record<string, unknown>;

export interface DemoFixture {
  root: string;
  projectDir: string;
  hiveDir: string;
  secondProjectDir: string;
  swarm: (file: string) => string;
  cleanup: () => void;
}

export function makeDemo(options: Partial<Omit<DemoOptions, 'projectDir' | 'hiveDir'>> = {}, root = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-'))): DemoFixture {
  const projectDir = path.join(root, 'billing-api');
  const hiveDir = path.join(root, 'hive-data');
  const dirs = generateDemoWorkspace({ projectDir, hiveDir, seed: 42, ...options });
  return {
    root,
    projectDir,
    hiveDir,
    secondProjectDir: dirs[1] as string,
    swarm: (file) => path.join(projectDir, '.swarm', file),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(dir);
  return out;
}

/** sha256 over every file's relative path and bytes, in sorted order. */
export function treeHash(dir: string): string {
  const hash = crypto.createHash('sha256');
  for (const file of listFiles(dir)) {
    hash.update(path.relative(dir, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Parses a JSONL file strictly: every line must parse and the file must end with `\n`. */
export function readJsonl(file: string): Rec[] {
  const text = fs.readFileSync(file, 'utf8');
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error(`${file} does not end with a newline`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Rec;
      } catch (error) {
        throw new Error(`${file}:${i + 1} does not parse: ${(error as Error).message}`);
      }
    });
}

export const readJson = (file: string): Rec => JSON.parse(fs.readFileSync(file, 'utf8')) as Rec;

/** Word-bigram Jaccard similarity, the plugin's near-duplicate rule. */
export function bigramJaccard(a: string, b: string): number {
  const grams = (s: string) => {
    const words = s.toLowerCase().split(/\s+/).filter(Boolean);
    const set = new Set<string>();
    for (let i = 0; i < words.length - 1; i++) set.add(`${words[i]} ${words[i + 1]}`);
    return set;
  };
  const x = grams(a);
  const y = grams(b);
  let shared = 0;
  for (const g of x) if (y.has(g)) shared++;
  return shared / (x.size + y.size - shared || 1);
}

/** Independent verification of a hash-chained receipt file: canonical lines, contiguous seq, prev links, hashes. */
export function verifyChain(file: string): Rec[] {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.endsWith('\n')) throw new Error(`${file}: unterminated final line`);
  let prev = GENESIS_PREV;
  let seq = 0;
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      const record = JSON.parse(line) as Rec;
      const where = `${path.basename(file)}:${i + 1}`;
      if (line !== canonicalJson(record)) throw new Error(`${where}: not canonical JSON`);
      if (record.schema !== 'swarm.knowledge-receipt/2') throw new Error(`${where}: schema ${String(record.schema)}`);
      if (record.seq !== seq + 1) throw new Error(`${where}: seq ${String(record.seq)} after ${seq}`);
      if (record.prev !== prev) throw new Error(`${where}: prev does not link`);
      if (record.hash !== receiptRecordHash(record)) throw new Error(`${where}: hash mismatch`);
      prev = record.hash as string;
      seq = record.seq as number;
      return record;
    });
}
