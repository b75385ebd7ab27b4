import fs from 'node:fs';
import { writePrivateFileAtomic } from '../platform/paths/private-files';

/**
 * The OpenCode servers the operator connected to, kept across restarts in the console's user-data
 * folder (`live-servers.json`, 0600): URL and label only. Passwords are never written anywhere — a
 * server that needs one comes back unauthorised and the Live view asks for it again.
 */
export interface RememberedServer {
  url: string;
  label: string;
}

const MAX_SERVERS = 32;

export class RememberedServers {
  constructor(private readonly file: string) {}

  list(): RememberedServer[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return []; // missing or damaged: nothing to reconnect, and the next connect rewrites it
    }
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((s): s is RememberedServer => typeof s?.url === 'string' && typeof s?.label === 'string')
      .map((s) => ({ url: s.url, label: s.label }))
      .slice(0, MAX_SERVERS);
  }

  remember(server: RememberedServer): void {
    const others = this.list().filter((s) => s.url !== server.url);
    this.write([...others, { url: server.url, label: server.label }].slice(-MAX_SERVERS));
  }

  forget(url: string): void {
    const list = this.list();
    const kept = list.filter((s) => s.url !== url);
    if (kept.length !== list.length) this.write(kept);
  }

  private write(list: RememberedServer[]): void {
    writePrivateFileAtomic(this.file, `${JSON.stringify(list, null, 2)}\n`);
  }
}
