import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Who is at the terminal that runs `serve`: its TTY, the chain of parent processes and whether
 * anything marks it as an AI agent's shell. OpenCode (verified on the 1.18 binary: its CLI
 * middleware sets `AGENT=1`, `OPENCODE=1`, `OPENCODE_PID=<pid>` in its own environment, so every
 * tool shell and PTY it starts inherits them; its PTYs add `OPENCODE_TERMINAL=1`; the agent's bash
 * tool runs as a child of the process named `opencode`). An agent that starts `serve` under
 * `script` gets a real pseudo-terminal and could read the one-time code from it, so the terminal
 * channel is refused there. This stops a stock agent shell; a same-user process that scrubs its
 * environment and detaches from the `opencode` process tree is not stopped (README says so).
 */
export const AGENT_SHELL_REASON =
  'This console was started from an agent\'s shell (an OpenCode process or its environment is among its ancestors), so the code printed on its terminal could be read by the agent itself. Human-only commands are off here; run `swarm-console serve` from your own terminal, or open the desktop app.';

export interface ProcessContext {
  /** The TTY of stdin (e.g. `/dev/pts/3`), or null. */
  tty: string | null;
  /** Names of the parent processes, nearest first, up to the init process. */
  parents: string[];
  /** The agent markers found: environment variables (`AGENT=1`, …) and `ancestor:opencode`. */
  agentMarkers: string[];
}

const AGENT_ENV: readonly (readonly [string, (value: string) => boolean])[] = [
  ['AGENT', (v) => v === '1'],
  ['OPENCODE', (v) => v === '1'],
  ['OPENCODE_PID', (v) => v !== ''],
  ['OPENCODE_TERMINAL', (v) => v === '1'],
];

/** `opencode` itself (its comm name; the npm launcher execs the platform binary of that name). */
const isOpencodeName = (name: string) => /^\.?opencode(\b|[-_.]|$)/i.test(name);

export function agentEnvMarkers(env: NodeJS.ProcessEnv): string[] {
  return AGENT_ENV.filter(([name, test]) => typeof env[name] === 'string' && test(env[name] as string)).map(([name]) => `${name}=${name === 'OPENCODE_PID' ? '…' : env[name]}`);
}

interface ProcStat {
  name: string;
  ppid: number;
}

/** Linux: /proc/<pid>/stat ("pid (comm) state ppid …"; comm may hold spaces and parentheses). */
function procStat(pid: number): ProcStat | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const rest = stat.slice(close + 2).split(' ');
    return { name: stat.slice(open + 1, close), ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}

/** Elsewhere (macOS): `ps`, one call per ancestor. */
function psStat(pid: number): ProcStat | null {
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const match = /^(\d+)\s+(.*)$/.exec(out);
    return match ? { ppid: Number(match[1]), name: (match[2] as string).split('/').at(-1) as string } : null;
  } catch {
    return null;
  }
}

export function parentChain(pid = process.ppid, limit = 64): string[] {
  const read = fs.existsSync('/proc/self/stat') ? procStat : psStat;
  const names: string[] = [];
  for (let current = pid, i = 0; current > 0 && i < limit; i++) {
    const stat = read(current);
    if (!stat) break;
    names.push(stat.name);
    if (stat.ppid === current) break;
    current = stat.ppid;
  }
  return names;
}

function ttyName(): string | null {
  try {
    const target = fs.readlinkSync('/proc/self/fd/0');
    return target.startsWith('/dev/') ? target : null;
  } catch {
    return process.stdin.isTTY ? 'tty' : null;
  }
}

export function processContext(env: NodeJS.ProcessEnv = process.env): ProcessContext {
  const parents = parentChain();
  const agentMarkers = [...agentEnvMarkers(env), ...parents.filter(isOpencodeName).map((name) => `ancestor:${name}`)];
  return { tty: ttyName(), parents, agentMarkers };
}
