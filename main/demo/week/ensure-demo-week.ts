import path from 'node:path';
import { DEMO_SWARM_MAX_ENTRIES } from '../curator';
import { DEMO_PROJECT } from '../ids';
import { type DemoLocation, DEMO_SEED, demoIsStale, demoLocation, generateDemo, markDemoGenerated } from '../ensure-demo';
import { releasedWeekInput } from '../released/released-week';
import { BILLING_EVICTED_LESSONS, BILLING_SWEPT_TODO, scriptDemoWeek, type DemoWeek } from '../week-script';
import { replayDemoWeek, type ReplaySummary } from './replay-week';

/** The scripted week of the demo project anchored on `now` (the files must be the generator's). */
export function demoWeekOf(location: DemoLocation, now: number): DemoWeek {
  const swarmDir = path.join(location.projectDir, '.swarm');
  return scriptDemoWeek({
    storeDir: swarmDir, eventsDir: swarmDir, hiveDir: location.hiveDir, now, seed: DEMO_SEED, cap: DEMO_SWARM_MAX_ENTRIES, project: DEMO_PROJECT,
    evictedLessons: BILLING_EVICTED_LESSONS, sweptTodo: BILLING_SWEPT_TODO,
  });
}

/** The scripted week of the released pair (inventory-api, its linked store and own hive) anchored on `now`. */
export function releasedWeekOf(location: DemoLocation, now: number): DemoWeek {
  return scriptDemoWeek(releasedWeekInput(location.released, now, DEMO_SEED));
}

/** `SWARM_CONSOLE_DEMO_WEEK=0`: the demo without its scripted week (its history starts when it is first opened). */
export const NO_WEEK_ENV = 'SWARM_CONSOLE_DEMO_WEEK';

/**
 * The demo as the hosts open it: generated once a day, and on each generation the scripted weeks of billing-api and
 * of the released pair's inventory-api are replayed into their histories (replay-week.ts), so "since I last looked", "as of phase 4" and
 * "forgotten" have a week to show on the first start. Should the replay fail, the demo is generated again
 * without a history (the console then records from its first opening) and the failure is said once.
 */
export async function ensureDemoWithWeek(
  userDataDir: string,
  now: number = Date.now(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ location: DemoLocation; replay: ReplaySummary | null; releasedReplay: ReplaySummary | null }> {
  if (!demoIsStale(userDataDir, now)) return { location: demoLocation(userDataDir), replay: null, releasedReplay: null };
  const location = generateDemo(userDataDir, now);
  let replay: ReplaySummary | null = null;
  let releasedReplay: ReplaySummary | null = null;
  try {
    if (env[NO_WEEK_ENV] !== '0') {
      replay = await replayDemoWeek(userDataDir, location.projectDir, location.hiveDir, demoWeekOf(location, now));
      const { projectDir, hiveDir } = location.released;
      releasedReplay = await replayDemoWeek(userDataDir, projectDir, hiveDir, releasedWeekOf(location, now));
    }
  } catch (error) {
    console.warn('[demo] the scripted week was not recorded into history:', (error as Error).message);
    generateDemo(userDataDir, now);
  }
  markDemoGenerated(userDataDir, now);
  return { location, replay, releasedReplay };
}

