import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { choosePort, DEFAULT_PORT, parsePortOption } from './listen-port';

async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the browser host port', () => {
  it('is a stable default unless --port names one', () => {
    expect(DEFAULT_PORT).toBe(37251);
    expect(parsePortOption(undefined)).toBeUndefined();
    expect(parsePortOption('0')).toBe(0);
    expect(parsePortOption('8080')).toBe(8080);
    for (const bad of ['', 'x', '-1', '65536', '1.5']) expect(() => parsePortOption(bad)).toThrow(/--port must be/);
  });

  it('keeps a free default port, and falls back to a free one (said) when the default is taken', async () => {
    const held = await holdPort();
    try {
      // The held port plays the default: taken, so a free port (0) with a note.
      expect(await choosePort(undefined, held.port)).toEqual({ ok: true, port: 0, note: `port ${held.port} is in use; using a free port instead (--port N picks one)` });
    } finally {
      await held.close();
    }
    // Released: the default itself.
    expect(await choosePort(undefined, held.port)).toEqual({ ok: true, port: held.port, note: null });
  });

  it('refuses a taken port named with --port instead of moving it', async () => {
    const held = await holdPort();
    try {
      expect(await choosePort(held.port)).toEqual({ ok: false, port: held.port, code: 'EADDRINUSE' });
      expect(await choosePort(0)).toEqual({ ok: true, port: 0, note: null });
    } finally {
      await held.close();
    }
  });
});
