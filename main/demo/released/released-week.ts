import fs from 'node:fs';
import path from 'node:path';
import { DAY, HOUR } from '../clock';
import type { InventedLesson, WeekInput } from '../week-script';
import { type ReleasedDemoLocation } from './generate-released';
import { RELEASED_LINK_ID, RELEASED_PROJECT } from './ids';

/**
 * What the released pair's scripted week needs beyond its generated files: inventory-api's store is the link dir's
 * (docs/plugin-formats.md#link-tier), its events log the main worktree's, and four lessons it held at its cap
 * before the week, lost to the week's `knowledge_add` calls (docs/plugin-formats.md#caps-and-ttl-archive).
 */
const EVICTED: InventedLesson[] = [
  { lesson: 'Lock the stock row with SELECT ... FOR UPDATE before decrementing it inside a reservation.', category: 'architecture', status: 'established', confidence: 0.8, tags: ['reservations', 'locking'] },
  { lesson: 'Map ERP warehouse codes through the warehouse_aliases table; never compare the raw codes.', category: 'integration', status: 'candidate', confidence: 0.6, tags: ['erp', 'warehouses'] },
  { lesson: 'Expire unpaid reservations with the scheduled sweeper, not with a timer in the request process.', category: 'process', status: 'candidate', confidence: 0.65, tags: ['reservations', 'expiry'] },
  { lesson: 'Replay the outbox from the last acknowledged offset after a broker outage; do not republish everything.', category: 'process', status: 'established', confidence: 0.75, tags: ['outbox', 'recovery'] },
];

/** "When I last looked" on the released pair: mid-week, before the two lessons of Phase 3 evicted the oldest. */
export const RELEASED_LAST_LOOKED_BEFORE_ANCHOR = 3 * DAY + 12 * HOUR;

/** The scripted week's input for the generated released pair (its cap as the generated config sets it). */
export function releasedWeekInput(location: ReleasedDemoLocation, now: number, seed: number): WeekInput {
  const config = JSON.parse(fs.readFileSync(path.join(location.projectDir, '.opencode', 'opencode-swarm.json'), 'utf8')) as { knowledge?: { swarm_max_entries?: number } };
  const cap = config.knowledge?.swarm_max_entries;
  if (typeof cap !== 'number') throw new Error('the released demo sets no swarm_max_entries');
  return {
    storeDir: path.join(location.hiveDir, 'links', RELEASED_LINK_ID),
    eventsDir: path.join(location.projectDir, '.swarm'),
    hiveDir: location.hiveDir,
    now,
    seed,
    cap,
    project: RELEASED_PROJECT,
    evictedLessons: EVICTED,
    sweptTodo: null,
    lastLookedBeforeAnchor: RELEASED_LAST_LOOKED_BEFORE_ANCHOR,
  };
}
