import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 10 item 10 (second half): a URL on a port fetch refuses is a bad argument, said plainly.

const repo = path.resolve(__dirname, '..', '..');

describe('swarm-console denials --opencode on a blocked port', () => {
  it('says the HTTP client blocks the port and why, and exits 2', async () => {
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [path.join(repo, 'bin', 'swarm-console.mjs'), 'denials', '--opencode', 'http://127.0.0.1:1'], { cwd: repo }, (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    expect(result.stderr).toContain('port 1 is blocked by the HTTP client (fetch refuses ports browsers consider unsafe');
    expect(result.stderr).not.toContain('bad port');
    expect(result.code).toBe(2);
  });
});
