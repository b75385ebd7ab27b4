import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { createRng } from '../rng';

/** `SWARM_CONSOLE_DEMO_AT_WORK=<seconds>`: the demo's plugin writes once every that many seconds (off when unset). */
export const AT_WORK_ENV = 'SWARM_CONSOLE_DEMO_AT_WORK';

export interface PluginAtWork {
  /** Writes done so far (each one scripted step). */
  readonly writes: number;
  /** Stops the timer and waits for a write in progress; nothing is written after it resolves. */
  stop(): Promise<void>;
}

type Rec = Record<string, unknown>;
const ACTIVE = new Set(['candidate', 'established', 'promoted']);
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The seconds asked for in the environment, or null (unset, empty, not a positive number). */
export function atWorkSeconds(env: NodeJS.ProcessEnv = process.env): number | null {
  const seconds = Number(env[AT_WORK_ENV]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Whether `projectDir` is a project of the generated demo under `<userData>/demo` (never a real project). */
export function isDemoProject(userDataDir: string, projectDir: string): boolean {
  try {
    const demoRoot = fs.realpathSync(path.join(userDataDir, 'demo'));
    const project = fs.realpathSync(projectDir);
    const relative = path.relative(demoRoot, project);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) && fs.existsSync(path.join(demoRoot, '.generated.json'));
  } catch {
    return false;
  }
}

/**
 * The demo's plugin "at work" while the console watches: every `everyMs`, one more write as the plugin makes
 * them, alternating a retrieval (a `retrieved` event appended to knowledge-events.jsonl and the lesson's
 * `shown_count` bumped in knowledge.jsonl) and verdict feedback (confidence +0.03 or −0.05, clamped to
 * [0.1, 1]; docs/plugin-formats.md#lifecycle). Each write holds the plugin's own lock on `.swarm`
 * (docs/plugin-formats.md#locks) and replaces the store by temp + rename (docs/plugin-formats.md#temp-and-rename);
 * a busy lock skips the turn. Only for a project of the generated demo (null otherwise).
 */
export function startPluginAtWork(userDataDir: string, projectDir: string, everyMs: number, seed = 42): PluginAtWork | null {
  if (!isDemoProject(userDataDir, projectDir)) return null;
  const swarmDir = path.join(projectDir, '.swarm');
  const store = path.join(swarmDir, 'knowledge.jsonl');
  if (!fs.existsSync(store)) return null;
  const rng = createRng(seed, 'plugin-at-work');
  let writes = 0;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const step = async () => {
    let release: (() => Promise<void>) | null = null;
    try {
      release = await lockfile.lock(swarmDir, { stale: 5_000, realpath: true, retries: { retries: 5, minTimeout: 100, maxTimeout: 500, factor: 2 } });
    } catch {
      return; // the plugin (or the console) is writing: this turn is skipped
    }
    try {
      if (stopped) return;
      const lines = fs.readFileSync(store, 'utf8').split('\n').filter((line) => line.length > 0);
      const candidates = lines.map((line, index) => ({ line, index })).filter(({ line }) => {
        try {
          const r = JSON.parse(line) as Rec;
          // Never a critical directive: a `retrieved` line of one is gate authority for the open phase
          // (docs/plugin-formats.md#knowledge-events), and the demo's gate story must stay as written.
          return ACTIVE.has(String(r.status)) && r.directive_priority !== 'critical' && typeof r.retrieval_outcomes === 'object' && JSON.stringify(r) === line;
        } catch {
          return false;
        }
      });
      if (candidates.length === 0) return;
      const pick = candidates[rng.int(0, candidates.length - 1)] as { line: string; index: number };
      const record = JSON.parse(pick.line) as Rec;
      const at = new Date().toISOString();
      if (writes % 2 === 0) {
        const outcomes = record.retrieval_outcomes as Rec;
        record.retrieval_outcomes = { ...outcomes, shown_count: Number(outcomes.shown_count ?? 0) + 1 };
        const event = { schema_version: 1, type: 'retrieved', trace_id: rng.uuid(), session_id: 'ses_demoAtWork', phase: 'Phase 5', task_id: '5.4', agent: 'coder', query: 'demo: the plugin at work', retrieval_mode: 'auto_injection', result_ids: [record.id], ranks: { [String(record.id)]: 1 }, scores: { [String(record.id)]: 1 }, event_id: rng.uuid(), timestamp: at };
        fs.appendFileSync(path.join(swarmDir, 'knowledge-events.jsonl'), `${JSON.stringify(event)}\n`);
      } else {
        const confidence = typeof record.confidence === 'number' ? record.confidence : 0.5;
        // Verdict feedback that moves it: up unless already at the ceiling, down unless at the floor.
        const up = confidence + 0.03 <= 1 && (confidence - 0.05 < 0.1 || rng.chance(0.5));
        record.confidence = round2(up ? confidence + 0.03 : confidence - 0.05);
      }
      record.updated_at = at;
      lines[pick.index] = JSON.stringify(record);
      const temp = `${store}.tmp.${Date.now()}.${rng.int(0, 1e9)}`;
      fs.writeFileSync(temp, lines.map((line) => `${line}\n`).join(''));
      fs.renameSync(temp, store);
      writes++;
    } finally {
      await release();
    }
  };

  const timer = setInterval(() => {
    running = running.then(() => (stopped ? undefined : step())).catch((error) => console.warn('[demo] the plugin at work could not write:', (error as Error).message));
  }, everyMs);
  timer.unref?.();
  return {
    get writes() {
      return writes;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
