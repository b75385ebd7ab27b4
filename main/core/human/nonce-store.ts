import fs from 'node:fs';
import path from 'node:path';
import { withStoreLock } from './write/store-lock';

/**
 * Nonces of tokens that were used (or burnt by wrong confirmation codes). Persisted as JSONL in
 * user-data so a token stays spent across restarts. Spending re-reads the file under a lock on its
 * folder, so two console processes sharing a user-data folder cannot both spend one token.
 */
export class UsedNonces {
  constructor(private readonly file: string) {}

  private read(): Map<string, { exp: number; why: string }> {
    const used = new Map<string, { exp: number; why: string }>();
    let text = '';
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      try {
        const record = JSON.parse(line) as { nonce?: unknown; exp?: unknown; why?: unknown };
        if (typeof record.nonce === 'string') used.set(record.nonce, { exp: Number(record.exp), why: String(record.why ?? 'used') });
      } catch {
        // a torn last line from a crash: the nonce was not recorded, so the token was not used either
      }
    }
    return used;
  }

  /** Why the nonce is spent ("used", "burnt: 3 wrong codes"), or null when it is still fresh. */
  spent(nonce: string): string | null {
    return this.read().get(nonce)?.why ?? null;
  }

  /** Records the nonce as spent; false when it already was (the caller lost a race). */
  async spend(nonce: string, exp: number, why: string): Promise<boolean> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    return withStoreLock(path.dirname(this.file), async () => {
      if (this.spent(nonce) !== null) return false;
      fs.appendFileSync(this.file, `${JSON.stringify({ nonce, exp, why, at: new Date().toISOString() })}\n`, { mode: 0o600 });
      return true;
    });
  }
}
