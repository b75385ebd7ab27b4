import net from 'node:net';

/**
 * The browser host's port. A fixed default keeps the console's address (and the page cookie, named
 * per port, and any bookmark or `ssh -L` tunnel) the same from one launch to the next; when another
 * program holds it, a free port is used and said.
 */
export const DEFAULT_PORT = 37251;

/** `--port` as given: undefined when absent (the default port, with a fallback), else 0–65535. */
export function parsePortOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a number from 0 to 65535');
  return port;
}

/** Can 127.0.0.1:<port> be listened on right now? (error code when not: EADDRINUSE, EACCES, …) */
export function probePort(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'EUNKNOWN'));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(null)));
  });
}

export type PortChoice = { ok: true; port: number; note: string | null } | { ok: false; port: number; code: string };

/**
 * Chosen before anything is written (the demo workspace, the index): a port named with --port must be
 * free or the command stops; the default falls back to a free port (0) with a note. A program taking
 * the port between this check and the host's own listen is still caught there.
 */
export async function choosePort(requested: number | undefined, defaultPort = DEFAULT_PORT): Promise<PortChoice> {
  if (requested === 0) return { ok: true, port: 0, note: null };
  const port = requested ?? defaultPort;
  const code = await probePort(port);
  if (code === null) return { ok: true, port, note: null };
  if (requested !== undefined) return { ok: false, port, code };
  return { ok: true, port: 0, note: `port ${defaultPort} is ${code === 'EADDRINUSE' ? 'in use' : `not available (${code})`}; using a free port instead (--port N picks one)` };
}

export function portRefusal(port: number, code: string): string {
  if (code === 'EADDRINUSE') return `swarm-console: port ${port} is in use; pick another with --port N (0 picks a free one).`;
  if (code === 'EACCES') return `swarm-console: not allowed to listen on port ${port}; pick another with --port N.`;
  return `swarm-console: cannot listen on 127.0.0.1:${port} (${code}); pick another with --port N.`;
}
