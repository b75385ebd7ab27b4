import fs from 'node:fs';

/**
 * Where the one-time confirmation codes are printed: the terminal a person typed `serve` into.
 * stdout when it is that terminal; when stdout is piped (`npm start 2>&1 | tee log`) the process's
 * controlling terminal, /dev/tty, as password prompts do — so the code reaches the person's screen
 * and never the pipe or the log file. /dev/tty counts only when it is the very terminal stdin
 * reads from (the same device), so this widens nothing: whoever sees it already sees stdin's terminal.
 * Without a terminal on stdin no person is at the keyboard, and there is no channel at all.
 */
export type CodeTerminal =
  | { kind: 'stdout' | 'tty'; write(line: string): void; close(): void }
  | { kind: 'none'; write?: undefined; close(): void };

interface Streams {
  stdin: { isTTY?: boolean; fd?: number };
  stdout: NodeJS.WriteStream | { isTTY?: boolean; write(text: string): unknown };

}

/**
 * Is stdin the controlling terminal that /dev/tty opens? A descriptor opened through /dev/tty
 * stats as /dev/tty itself, so the kernel's own record is compared instead: on Linux the
 * controlling terminal's device number (tty_nr in /proc/self/stat) against stdin's. Elsewhere
 * (no /proc) a TTY on stdin plus a /dev/tty that opens is taken as the same terminal.
 */
function stdinIsControllingTerminal(stdinFd: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return true;
  }
  try {
    // "pid (comm) state ppid pgrp session tty_nr …": comm may hold spaces and parentheses.
    const ttyNr = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]);
    const stdin = fs.fstatSync(stdinFd);
    return ttyNr !== 0 && stdin.isCharacterDevice() && stdin.rdev === ttyNr;
  } catch {
    return false;
  }
}

export function openCodeTerminal(streams: Streams = { stdin: process.stdin, stdout: process.stdout }): CodeTerminal {
  if (streams.stdin.isTTY !== true) return { kind: 'none', close: () => undefined };
  if (streams.stdout.isTTY === true) return { kind: 'stdout', write: (line) => void streams.stdout.write(`${line}\n`), close: () => undefined };
  if (process.platform === 'win32') return { kind: 'none', close: () => undefined };
  let fd: number;
  try {
    // O_NOCTTY: opening it must never make a terminal the controlling one.
    fd = fs.openSync('/dev/tty', fs.constants.O_WRONLY | fs.constants.O_NOCTTY);
  } catch {
    return { kind: 'none', close: () => undefined };
  }
  if (!stdinIsControllingTerminal(streams.stdin.fd ?? 0)) {
    fs.closeSync(fd);
    return { kind: 'none', close: () => undefined };
  }
  let open = true;
  return {
    kind: 'tty',
    write: (line) => {
      if (!open) return;
      try {
        fs.writeSync(fd, `${line}\n`);
      } catch {
        // A terminal that hung up: the code reached nobody, and the person asks for a new one.
      }
    },
    close: () => {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}
