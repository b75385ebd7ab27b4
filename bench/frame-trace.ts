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
}

interface TraceEvent {
  ph?: string;
  name?: string;
  pid?: number;
  tid?: number;
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
  return { frames: mainFrameCpu.length, mainFrameCpu, perThread: Object.fromEntries([...cpu].map(([key, ms]) => [key, ms / frames])) };
}

export const mainFrameCpu = (cost: FrameCost, p: number) => percentile(cost.mainFrameCpu, p);
export const allThreadsCpuPerFrame = (cost: FrameCost) => Object.values(cost.perThread).reduce((sum, ms) => sum + ms, 0);
