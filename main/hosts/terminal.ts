import readline from 'node:readline';

/**
 * The terminal the console was started from, as an input: the person there can press Enter
 * (for a new launch URL) or type a short code. Only a real terminal counts: input piped in
 * from elsewhere is not a person at the keyboard.
 */
interface Terminal {
  readonly interactive: boolean;
  /** Calls `listener` with each line typed; returns the unsubscribe. Does nothing when not interactive. */
  onLine(listener: (line: string) => void): () => void;
  close(): void;
}

export function openTerminal(input: NodeJS.ReadStream = process.stdin): Terminal {
  const interactive = input.isTTY === true;
  const listeners = new Set<(line: string) => void>();
  let lines: readline.Interface | null = null;

  const start = () => {
    if (lines || !interactive) return;
    // terminal: false keeps the TTY in cooked mode, so Ctrl+C still raises SIGINT as usual.
    lines = readline.createInterface({ input, terminal: false });
    lines.on('line', (line) => {
      for (const listener of listeners) listener(line.trim());
    });
  };

  return {
    interactive,
    onLine(listener) {
      listeners.add(listener);
      start();
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      lines?.close();
      lines = null;
      // A paused, unreferenced stdin does not keep the process alive after shutdown.
      input.pause();
      (input as { unref?: () => void }).unref?.();
    },
  };
}
