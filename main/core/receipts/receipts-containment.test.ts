import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadReceipts } from './load-receipts';

// The V2 receipt files and the counter baseline obey the same rule as every other store: a path
// symlinked outside the project and the knowledge folder is not read, and says so with its target.

const SECRET = 'TOPSECRET-receipt-credential-5e21';
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-containment-'));
  roots.push(root);
  const projectDir = path.join(root, 'project');
  const swarmDir = path.join(projectDir, '.swarm');
  const outside = path.join(root, 'elsewhere');
  fs.mkdirSync(swarmDir, { recursive: true });
  fs.mkdirSync(outside);
  const link = (name: string, content: string) => {
    fs.writeFileSync(path.join(outside, name), content);
    fs.symlinkSync(path.join(outside, name), path.join(swarmDir, name));
  };
  // Not a chain: were it read, the break would quote the line's first bytes.
  link('knowledge-receipts-v2.jsonl', `${SECRET}=hunter2\n`);
  link('knowledge-receipts-v2-archive.jsonl', `${SECRET}\n`);
  link('knowledge-receipts-v2.snapshot.json', `{"schema": "${SECRET}"}`);
  link('knowledge-counter-baseline.json', JSON.stringify({ [SECRET]: { shown_count: 1 } }));
  return { projectDir, swarmDir, knowledgeDir: swarmDir, outside };
}

describe('receipt files symlinked outside the workspace', () => {
  it('are not read: unreadable with "symlink outside the workspace — not read" and the target; nothing of them shows', async () => {
    const ws = workspace();
    const model = await loadReceipts(ws);
    const byKind = Object.fromEntries(model.integrity.files.map((f) => [f.kind, f]));
    for (const [kind, name] of [
      ['journal', 'knowledge-receipts-v2.jsonl'],
      ['archive', 'knowledge-receipts-v2-archive.jsonl'],
      ['snapshot', 'knowledge-receipts-v2.snapshot.json'],
    ] as const) {
      expect(byKind[kind]?.state, kind).toBe('unreadable');
      expect(byKind[kind]?.reason, kind).toContain(`symlink outside the workspace — not read (it leads to ${path.join(ws.outside, name)})`);
    }
    expect(JSON.stringify([model.integrity, model.sources])).not.toContain(SECRET);
    expect(JSON.stringify(model.integrity)).not.toContain('hunter2');
  });

  it('are read when the operator allowed symlinks outside (so the check above can fail)', async () => {
    const ws = workspace();
    const model = await loadReceipts({ ...ws, allowSymlinksOutside: true });
    const journal = model.integrity.files.find((f) => f.kind === 'journal');
    expect(journal?.state).toBe('corrupt');
    expect(JSON.stringify(model.integrity)).toContain(SECRET);
  });
});
