import type { EntryDetail } from '../../../shared/contract/knowledge';
import { confirmationTimeline, entryId, entryLesson, entryStatus } from '../rules/entry-fields';
import type { Counterpart } from './counterparts';
import type { KnowledgeModel } from './knowledge-model';
import type { SourceEntry } from './model-types';
import { maturityVerdict } from '../rules/maturity-gate';
import { VIOLATION_WINDOW_DAYS } from './counter-state';
import { fullValue } from './from-index';

const RECENT_RECEIPTS = 50;

const location = (e: SourceEntry) => ({ tier: e.tier, collection: e.collection, storeKey: e.storeKey, file: e.file, line: e.line });

/** What a detail reads of a model (persisted-knowledge.ts supplies it from the index too). */
export type DetailFacts = Pick<KnowledgeModel, 'thresholds' | 'asOf' | 'outcomes' | 'markers' | 'events' | 'byId' | 'citingSkills' | 'counterparts' | 'lineOf'>;

/** Everything the detail pane shows for one entry (`counterparts` may be found beforehand, in time slices). */
export function entryDetail(model: DetailFacts, entry: SourceEntry, counterparts: () => Counterpart[] = () => model.counterparts(entry)): EntryDetail {
  const id = entryId(entry.value);
  const text = model.lineOf(entry);
  // The kept entry may lack parts only this pane shows (cold-fields.ts): the whole one is its line's.
  const value = fullValue(entry, () => text);
  const outcomes = model.outcomes(entry);
  const events = model.events(id);
  const byKind: Record<string, number> = {};
  for (const event of events) byKind[event.kind] = (byKind[event.kind] ?? 0) + 1;
  return {
    id,
    ...location(entry),
    value: { ...value },
    text,
    notes: entry.notes,
    copies: model.byId(id).filter((copy) => copy !== entry).map(location),
    outcomes,
    markers: model.markers(entry),
    maturity: entry.collection === 'rejected' ? null : maturityVerdict(value, outcomes, model.thresholds),
    timeline: confirmationTimeline(value),
    receipts: { total: events.length, byKind, recent: events.slice(0, RECENT_RECEIPTS) },
    skills: model.citingSkills(id).map(({ sourceIds: _ids, ...skill }) => skill),
    counterparts:
      entry.collection === 'rejected'
        ? []
        : counterparts().map((c) => ({
            id: entryId(c.entry.value),
            tier: c.entry.tier,
            lesson: entryLesson(c.entry.value),
            status: entryStatus(c.entry.value),
            similarity: c.similarity,
            exact: c.exact,
          })),
    asOf: new Date(model.asOf).toISOString(),
    windowDays: VIOLATION_WINDOW_DAYS,
  };
}
