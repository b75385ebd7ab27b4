import { percentile } from './report';

/**
 * Reads a Chromium trace (`browser.startTracing` with the `toplevel`, `devtools.timeline` and
 * `cc` categories) for the CPU each frame costs, thread by thread. Frame deadlines missed on a
 * shared 2-core machine mix the page's own cost with everything else running; thread CPU time
 * (`tdur`) is the page's own cost.
 */
interface FrameCost {
  frames: number;
  /** Thread-CPU of each renderer main-thread frame (BeginMainFrame), ms. */
  mainFrameCpu: number[];
  /** CPU per frame by process/thread name, ms, summed over every task of that thread. */
  perThread: Record<string, number>;
  /** Renderer main-thread CPU per frame by lifecycle phase, ms (what to cut first). */
  perPhase: Record<string, number>;
}

/** Trace event → phase. `script` includes the style and layout a script forces by reading layout. */
const PHASES: Record<string, string> = {
  FunctionCall: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  Layerize: 'layerize',
  Commit: 'commit',
};

interface TraceEvent {
  ph?: string;
  name?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

const TASKS = new Set(['ThreadControllerImpl::RunTask', 'RunTask', 'ThreadPool_RunTask']);

export function frameCost(trace: string | Buffer): FrameCost {
  const parsed = JSON.parse(String(trace)) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const threads = new Map<string, string>();
  const processes = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
    if (e.name === 'process_name' && e.pid !== undefined) processes.set(e.pid, e.args?.name ?? '?');
  }
  const mainFrameCpu: number[] = [];
  const cpu = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X') continue;
    if (e.name === 'ProxyMain::BeginMainFrame') mainFrameCpu.push((e.tdur ?? 0) / 1000);
    else if (e.name && TASKS.has(e.name)) {
      const key = `${processes.get(e.pid ?? -1) ?? '?'} ${threads.get(`${e.pid}:${e.tid}`) ?? '?'}`;
      cpu.set(key, (cpu.get(key) ?? 0) + (e.tdur ?? 0) / 1000);
    }
  }
  const frames = Math.max(1, mainFrameCpu.length);
  const mainThread = events.find((e) => e.ph === 'X' && e.name === 'ProxyMain::BeginMainFrame');
  const phases = new Map<string, number>();
  // Phase events nest inside themselves (Paint within Paint, a function calling a function): only the outermost counts.
  const outermostEnd = new Map<string, number>();
  const onMain = events.filter((e) => e.ph === 'X' && mainThread && e.pid === mainThread.pid && e.tid === mainThread.tid && e.name && e.name in PHASES);
  for (const e of onMain.sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0))) {
    const phase = PHASES[e.name!]!;
    if ((e.ts ?? 0) < (outermostEnd.get(phase) ?? -Infinity)) continue;
    outermostEnd.set(phase, (e.ts ?? 0) + (e.dur ?? 0));
    phases.set(phase, (phases.get(phase) ?? 0) + (e.tdur ?? 0) / 1000);
  }
  return {
    frames: mainFrameCpu.length,
    mainFrameCpu,
    perThread: Object.fromEntries([...cpu].map(([key, ms]) => [key, ms / frames])),
    perPhase: Object.fromEntries([...phases].map(([phase, ms]) => [phase, ms / frames])),
  };
}

export const mainFrameCpu = (cost: FrameCost, p: number) => percentile(cost.mainFrameCpu, p);
export const allThreadsCpuPerFrame = (cost: FrameCost) => Object.values(cost.perThread).reduce((sum, ms) => sum + ms, 0);
