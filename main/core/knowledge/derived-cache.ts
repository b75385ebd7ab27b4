import type { DirectiveRow } from '../../../shared/contract/knowledge';
import type { CounterState } from './counter-state';
import { entryLesson, type RawEntry } from '../rules/entry-fields';
import type { SourceEntry } from './model-types';
import { normalizeLesson } from '../rules/similarity';
import { BigramVocabulary, type BigramIds } from './bigram-ids';
import type { KnowledgeThresholds } from '../rules/thresholds';

/**
 * Per-entry results that survive model rebuilds. Entries are kept by rid across rebuilds (see
 * entry-cache.ts), so anything computed from one entry alone is computed once per entry: its
 * bigram set and normalised lesson for ever, its directive row for as long as the counters and
 * thresholds it was computed with stay in force. Weak maps let dropped entries go.
 */
export class DerivedCache {
  // Keyed by the entry's value: an entry's value object lives exactly as long as the entry.
  private readonly bigramIds = new WeakMap<RawEntry, BigramIds>();
  /** Ids of every bigram met so far (the vocabulary of the workspace's lessons; it only grows). */
  private readonly vocabulary = new BigramVocabulary();
  private readonly normals = new WeakMap<RawEntry, string>();
  private directives: { counters: CounterState; thresholds: string; rows: WeakMap<SourceEntry, DirectiveRow> } | null = null;

  /** The entry's lesson's word bigrams, as packed ids (see bigram-ids.ts). */
  bigrams(entry: SourceEntry): BigramIds {
    return this.bigramIdsOf(entry.value);
  }

  /** The same for a lesson value (the preview's tier merge works on values). */
  bigramIdsOf(value: RawEntry): BigramIds {
    let ids = this.bigramIds.get(value);
    if (ids === undefined) this.bigramIds.set(value, (ids = this.vocabulary.encodeText(entryLesson(value))));
    return ids;
  }

  bigramsInTextOrder(entry: SourceEntry): number[] {
    return this.vocabulary.textIds(entryLesson(entry.value));
  }

  normalized(entry: SourceEntry): string {
    return this.normalizedLesson(entry.value);
  }

  /** `normalizeLesson` of an entry's lesson, once per entry. */
  normalizedLesson(value: RawEntry): string {
    let normal = this.normals.get(value);
    if (normal === undefined) this.normals.set(value, (normal = normalizeLesson(entryLesson(value))));
    return normal;
  }

  /** Directive rows computed under these counters and thresholds (a new map when either changed). */
  directiveRows(counters: CounterState, thresholds: KnowledgeThresholds): WeakMap<SourceEntry, DirectiveRow> {
    const key = JSON.stringify(thresholds);
    if (this.directives?.counters !== counters || this.directives.thresholds !== key) {
      this.directives = { counters, thresholds: key, rows: new WeakMap() };
    }
    return this.directives.rows;
  }
}
