import type { EntryDetail, Inboxes } from '../../../shared/contract/knowledge';
import { DerivedStore, type LessonPostings, type PostingList } from '../store-index/derived-store';
import type { IndexDb } from '../store-index/open-index';
import { lineHash } from '../store-index/stored-lines';
import { STORES } from '../stores/catalog';
import { SliceCancelled, type TimeSlicer } from '../platform/util/time-slicer';
import { entryId, entryLesson } from '../rules/entry-fields';
import { jaccard, leastShared, wordBigrams } from '../rules/similarity';
import type { KnowledgeThresholds } from '../rules/thresholds';
import type { CounterState } from './counter-state';
import type { Counterpart } from './counterparts';
import type { DerivedCache } from './derived-cache';
import { entryDetail, type DetailFacts } from './entry-detail';
import { EventIndex } from './event-index';
import { MODEL_STORES, toSourceEntry } from './from-index';
import { PersistedDirectives } from './persisted-directives';
import type { KnowledgeModel } from './knowledge-model';
import type { EntryCollection, EntryTier, EventRef, KnowledgeInputs, SkillRef, SourceEntry } from './model-types';
import type { ReadList } from './chunked-list';

/**
 * The knowledge model's answers kept in the index, so a re-open of an unchanged workspace serves
 * the first detail, Inboxes and Directives page from disk while the model is rebuilt in the
 * background. What is kept: the bigram postings of the active lessons (an entry's counterparts
 * are then found with one query, the rest of a detail is one entry's lines plus the small
 * counter and side stores), the directive rows in file order (every sort and filter is done on
 * them as on the model's) and the inboxes. Each is stamped with the content fingerprint of the
 * stores it came from (plus thresholds and the counters' "as of" where they enter), and served
 * only when the stores still have that fingerprint: answers are those the model would give.
 */

const ENTRY_STORES = STORES.filter((s) => s.table === 'entries').map((s) => s.key);
const POSTINGS = 'bigrams';
const INBOXES = 'inboxes';
/** Lessons per postings transaction (a few ms each). */
const POSTINGS_BATCH = 200;
/** Above this many new lessons their postings are written in key order. */
const BULK_POSTINGS = 2000;
/** Token lists are written again once removed lessons in them would exceed 1 / DEAD_SHARE of the live ones. */
const DEAD_SHARE = 4;

const tierGroup = (tier: EntryTier): number => (tier === 'hive' ? 1 : 0);

/** What a detail reads besides entries: the small counter and side stores, and the thresholds. */
export interface LiveInputs {
  counters: CounterState;
  counterInputs: Pick<KnowledgeInputs, 'knowledgeEvents' | 'applicationLog'>;
  skills: readonly SkillRef[];
  thresholds: KnowledgeThresholds;
  /** The entry's line, read back from its store file (entries keep no text: see model-types.ts). */
  readLine: (entry: SourceEntry) => string;
}

export interface Stamps {
  entries: string;
  model: string;
}

type StoredInboxes = Omit<Inboxes, 'duplicatesFreshness'>;

export class PersistedKnowledge {
  private readonly store: DerivedStore;
  /** Rids whose postings are stored, once read (this process is the index's only writer of them). */
  private posted: Set<number> | null = null;
  private readonly directives: PersistedDirectives;
  private readonly events = new WeakMap<object, Map<string, EventRef[]>>();

  constructor(
    db: IndexDb,
    private readonly derived: DerivedCache,
  ) {
    this.store = new DerivedStore(db);
    this.directives = new PersistedDirectives(this.store);
  }

  stamps(thresholds: KnowledgeThresholds): Stamps {
    return {
      entries: this.store.contentFingerprint(ENTRY_STORES, true),
      model: `${this.store.contentFingerprint(MODEL_STORES, true)}#${JSON.stringify(thresholds)}`,
    };
  }

  private directivesStamp(modelStamp: string, asOf: number): string {
    return `${modelStamp}@${asOf}`;
  }

  // ---- keeping -------------------------------------------------------------------------------

  /** Keeps what `model` derived (built at `stamps`), then its inboxes when they come (null: a newer model came first). */
  async keep(model: KnowledgeModel, stamps: Stamps, slicer: TimeSlicer, inboxes: () => Promise<Inboxes | null>): Promise<void> {
    try {
      await this.saveModel(model, stamps, slicer);
      const current = await inboxes();
      if (current) this.saveInboxes(current, stamps.model);
    } catch (error) {
      if (!(error instanceof SliceCancelled)) console.warn('[knowledge] keeping derived state failed:', (error as Error).message);
    }
  }

  /** Stores the postings and directive rows of `model`, built at `stamps` (stops when `slicer` is cancelled). */
  async saveModel(model: KnowledgeModel, stamps: Stamps, slicer: TimeSlicer): Promise<void> {
    await this.savePostings(model.lessons(), stamps.entries, slicer);
    await this.directives.save(model, this.directivesStamp(stamps.model, model.asOf), slicer);
  }

  private async savePostings(lessons: ReadList<SourceEntry>, stamp: string, slicer: TimeSlicer): Promise<void> {
    if (this.store.storedStamp(POSTINGS) === stamp) return;
    this.store.invalidate(POSTINGS);
    const posted = (this.posted ??= new Set(this.store.postedRids()));
    const current = new Set<number>();
    let added: SourceEntry[] = [];
    await slicer.forEach(lessons, (lesson) => {
      current.add(lesson.rid);
      if (!posted.has(lesson.rid)) added.push(lesson);
    });
    const removed = [...posted].filter((rid) => !current.has(rid));
    if (removed.length > 0 && (this.store.deadLessons() + removed.length) * DEAD_SHARE > current.size) {
      // Removed lessons stay in their token lists (derived-store.ts); once they would be more than a
      // quarter of the live ones, every list is written again from the current lessons.
      this.store.clearPostings();
      posted.clear();
      added = [...lessons];
    } else {
      for (let i = 0; i < removed.length; i += POSTINGS_BATCH * 10) {
        const batch = removed.slice(i, i + POSTINGS_BATCH * 10);
        this.store.removeLessons(batch);
        for (const rid of batch) posted.delete(rid);
        await slicer.yield();
      }
    }
    const postingsOf = (lesson: SourceEntry): LessonPostings => ({ rid: lesson.rid, grp: tierGroup(lesson.tier), tokens: [...new Set([...wordBigrams(entryLesson(lesson.value))].map(lineHash))] });
    if (added.length > BULK_POSTINGS) {
      // Many lessons at once (the first keep): each token's list is written once, in key order.
      // Lessons are recorded after their postings: a lesson on record always has its postings.
      const byToken = [new Map<number, number[]>(), new Map<number, number[]>()];
      const batches: LessonPostings[][] = [];
      for (let i = 0; i < added.length; i += POSTINGS_BATCH) {
        const batch = added.slice(i, i + POSTINGS_BATCH).map(postingsOf);
        batches.push(batch);
        for (const { rid, grp, tokens } of batch) {
          for (const token of tokens) {
            const rids = byToken[grp]!.get(token);
            if (rids) rids.push(rid);
            else byToken[grp]!.set(token, [rid]);
          }
        }
        await slicer.yield();
      }
      let chunk: PostingList[] = [];
      let rids = 0;
      for (const grp of [0, 1]) {
        // In key order (derived-store.ts: the group, then the token as unsigned): each list is appended at the b-tree's end.
        for (const token of [...byToken[grp]!.keys()].sort((a, b) => (a >>> 0) - (b >>> 0))) {
          const list = byToken[grp]!.get(token)!.sort((a, b) => a - b);
          chunk.push({ grp, token, rids: list });
          rids += list.length;
          if (rids < POSTINGS_BATCH * 20) continue;
          this.store.addPostings(chunk);
          chunk = [];
          rids = 0;
          await slicer.yield();
        }
      }
      this.store.addPostings(chunk);
      for (const batch of batches) {
        this.store.addLessons(batch, false);
        for (const lesson of batch) posted.add(lesson.rid);
        await slicer.yield();
      }
    } else {
      for (let i = 0; i < added.length; i += POSTINGS_BATCH) {
        const batch = added.slice(i, i + POSTINGS_BATCH).map(postingsOf);
        this.store.addLessons(batch, true);
        for (const lesson of batch) posted.add(lesson.rid);
        await slicer.yield();
      }
    }
    this.store.finishValue(POSTINGS, stamp, 0);
  }

  /** Stores the inboxes computed at `modelStamp` (their freshness is that of the moment they are served). */
  saveInboxes(inboxes: Inboxes, modelStamp: string): void {
    if (this.store.storedStamp(INBOXES) === modelStamp) return;
    const { duplicatesFreshness, ...rest } = inboxes;
    this.store.invalidate(INBOXES);
    this.store.writeParts(INBOXES, 0, [JSON.stringify({ inboxes: rest, asOf: duplicatesFreshness.asOf })]);
    this.store.finishValue(INBOXES, modelStamp, 1);
  }

  // ---- serving -------------------------------------------------------------------------------

  /** An answer from kept state; null when none is kept for the stores as they are, or it cannot be read (the model then answers). */
  private guarded<T>(read: () => T | null): T | null {
    try {
      return read();
    } catch (error) {
      // A line changed behind the index, say: the model path reads the stores afresh.
      console.warn('[knowledge] kept state unreadable, building the model:', (error as Error).message);
      return null;
    }
  }

  detailFor(id: string, tier: EntryTier | undefined, live: () => LiveInputs): EntryDetail | null {
    return this.guarded(() => {
      const inputs = live();
      return this.detail(id, tier, this.stamps(inputs.thresholds).entries, inputs);
    });
  }

  directivesFor(query: Parameters<PersistedDirectives['page']>[0], live: () => LiveInputs): ReturnType<PersistedDirectives['page']> {
    return this.guarded(() => {
      const { thresholds, counters } = live();
      return this.directivesPage(query, this.stamps(thresholds).model, counters);
    });
  }

  inboxesFor(thresholds: KnowledgeThresholds): { inboxes: StoredInboxes; asOf: string } | null {
    return this.guarded(() => this.inboxes(this.stamps(thresholds).model));
  }

  /** The inboxes stored at `modelStamp`, with when they were computed; null when none are. */
  inboxes(modelStamp: string): { inboxes: StoredInboxes; asOf: string } | null {
    const parts = this.store.readValue(INBOXES, modelStamp);
    return parts ? (JSON.parse(parts[0]!) as { inboxes: StoredInboxes; asOf: string }) : null;
  }

  /** A Directives answer from the rows stored at `modelStamp` under these counters, or null. */
  directivesPage(query: Parameters<PersistedDirectives['page']>[0], modelStamp: string, counters: CounterState): ReturnType<PersistedDirectives['page']> {
    return this.directives.page(query, this.directivesStamp(modelStamp, counters.asOf), counters.asOf);
  }

  /** An entry's detail from its stored lines and the stored postings, or null when the postings are not those of `entriesStamp`. */
  detail(id: string, tier: EntryTier | undefined, entriesStamp: string, live: LiveInputs): EntryDetail | null {
    if (id === '' || this.store.storedStamp(POSTINGS) !== entriesStamp) return null;
    const copies = this.store.entriesWithId(id).map(toSourceEntry).filter((entry) => entryId(entry.value) === id);
    const order: EntryCollection[] = ['active', 'quarantined', 'unactionable', 'rejected'];
    const entry = copies.filter((e) => !tier || e.tier === tier).sort((a, b) => order.indexOf(a.collection) - order.indexOf(b.collection))[0];
    if (!entry) return null;
    const { counters, thresholds } = live;
    const facts: DetailFacts = {
      thresholds,
      asOf: counters.asOf,
      outcomes: (e) => counters.outcomes(e),
      markers: (e) => counters.markers(e, thresholds),
      events: (of) => this.eventsById(live.counterInputs).get(of) ?? [],
      byId: () => copies,
      citingSkills: (of) => live.skills.filter((skill) => skill.sourceIds.includes(of)),
      counterparts: (e) => this.counterparts(e, thresholds.dedup_threshold),
      lineOf: (e) => live.readLine(e),
    };
    return entryDetail(facts, entry);
  }

  /** Events by entry id, as the model indexes them (once per counter inputs). */
  private eventsById(inputs: LiveInputs['counterInputs']): Map<string, EventRef[]> {
    let byId = this.events.get(inputs);
    if (!byId) {
      const index = new EventIndex();
      for (const event of inputs.knowledgeEvents) index.addKnowledgeEvent(event);
      for (const event of inputs.applicationLog) index.addLegacyLine(event);
      this.events.set(inputs, (byId = index.finish()));
    }
    return byId;
  }

  /**
   * What CounterpartIndex.find gives, from the stored postings: a lesson at similarity ≥ t shares
   * at least t·|bigrams| of the entry's bigrams, so only those are read and compared. Ties keep
   * the index's order: first by the entry's first bigram a candidate has, then file order.
   */
  private counterparts(entry: SourceEntry, threshold: number): Counterpart[] {
    // Bigram strings, not the model's packed ids: the stored postings are keyed by the bigrams' hashes.
    const mine = wordBigrams(entryLesson(entry.value));
    if (mine.size === 0) return [];
    const bigrams = [...mine];
    const tokens = new Set(bigrams.map(lineHash));
    // Two of the entry's bigrams under one hash would let a candidate count one for both.
    const minShared = tokens.size === mine.size ? leastShared(mine.size, threshold) : 1;
    const other = tierGroup(entry.tier) === 1 ? 0 : 1;
    const candidates = this.store.entriesByRid(this.store.sharingTokens(other, [...tokens], minShared)).map(toSourceEntry);
    const normal = this.derived.normalized(entry);
    const found: (Counterpart & { first: number })[] = [];
    for (const candidate of candidates) {
      const theirs = wordBigrams(entryLesson(candidate.value));
      const first = bigrams.findIndex((bigram) => theirs.has(bigram));
      if (first < 0) continue;
      const similarity = jaccard(mine, theirs);
      const exact = this.derived.normalized(candidate) === normal;
      if (exact || similarity >= threshold) found.push({ entry: candidate, similarity: exact ? 1 : similarity, exact, first });
    }
    return found
      .sort((a, b) => a.first - b.first)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 10)
      .map(({ entry: e, similarity, exact }) => ({ entry: e, similarity, exact }));
  }
}
