import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStaticFile } from './static-files';

describe('resolveStaticFile', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'static-'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html>');
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), '');
  fs.writeFileSync(path.join(path.dirname(root), 'secret.txt'), 'x');

  it('serves files inside the renderer folder', () => {
    expect(resolveStaticFile(root, '/assets/app.js')).toBe(path.join(root, 'assets', 'app.js'));
  });
  it('falls back to index.html for routes', () => {
    expect(resolveStaticFile(root, '/knowledge')).toBe(path.join(root, 'index.html'));
  });
  it('never escapes the folder', () => {
    for (const attempt of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..\\secret.txt', '/%00']) {
      const resolved = resolveStaticFile(root, attempt);
      expect(resolved === null || resolved.startsWith(root + path.sep)).toBe(true);
    }
  });
});
