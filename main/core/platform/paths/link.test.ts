import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveLink, sanitizeLinkId } from './link';

describe('sanitizeLinkId', () => {
  it('applies the plugin rules in order', () => {
    expect(sanitizeLinkId('  Payments Cohort!! ')).toBe('payments-cohort');
    expect(sanitizeLinkId('..--abc--..')).toBe('abc');
    expect(sanitizeLinkId('a'.repeat(70))).toBe('a'.repeat(64));
    expect(sanitizeLinkId('!!!')).toBeNull();
    expect(sanitizeLinkId('CON.backup')).toBeNull();
  });
});

describe('resolveLink', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'link-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('is unlinked without a pointer', () => {
    const project = tmp();
    expect(resolveLink(project, '/data')).toMatchObject({ pointerPresent: false, linkId: null, problem: null });
  });

  it('follows a valid pointer and reports orphaned local files', () => {
    const project = tmp();
    fs.mkdirSync(path.join(project, '.swarm'));
    fs.writeFileSync(path.join(project, '.swarm', 'link.json'), JSON.stringify({ version: 1, linkId: 'Payments Cohort' }));
    fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), '');
    const link = resolveLink(project, '/data');
    expect(link.linkId).toBe('payments-cohort');
    expect(link.dir).toBe(path.join('/data', 'links', 'payments-cohort'));
    expect(link.orphanedLocalFiles).toEqual(['knowledge.jsonl']);
  });

  it('treats a corrupt pointer as unlinked, with a reason', () => {
    const project = tmp();
    fs.mkdirSync(path.join(project, '.swarm'));
    fs.writeFileSync(path.join(project, '.swarm', 'link.json'), '{"linkId":');
    expect(resolveLink(project, '/data')).toMatchObject({ pointerPresent: true, linkId: null, problem: expect.stringContaining('not valid JSON') });
  });
});
