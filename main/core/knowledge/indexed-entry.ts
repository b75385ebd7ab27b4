import type { RawEntry } from '../rules/entry-fields';
import type { EntryCollection, EntryTier, SourceEntry } from './model-types';

/** Where an entry's line sits: one object per file, shared by the file's entries. */
interface EntryPlace {
  readonly tier: EntryTier;
  readonly collection: EntryCollection;
  readonly storeKey: string;
  readonly file: string;
  readonly fileId: number;
}

/**
 * An entry read from the index. The model holds one per line (100k and more), and a plain
 * record of nine fields costs 96 bytes; the five that name its file are the same for every
 * line of that file, so they live in one shared place object and are read through getters:
 * 64 bytes an entry. Reads like any SourceEntry (the getters are on the prototype, so a spread
 * or JSON.stringify would not see them: nothing copies entries so, they are read field by field).
 */
export class IndexedEntry implements SourceEntry {
  constructor(
    readonly rid: number,
    readonly value: RawEntry,
    private readonly place: EntryPlace,
    readonly line: number,
    readonly notes: SourceEntry['notes'],
  ) {}

  get tier(): EntryTier {
    return this.place.tier;
  }

  get collection(): EntryCollection {
    return this.place.collection;
  }

  get storeKey(): string {
    return this.place.storeKey;
  }

  get file(): string {
    return this.place.file;
  }

  get fileId(): number {
    return this.place.fileId;
  }
}

/** The place of each file seen (by file id), bounded like the shared values: past the bound it starts over, which only loses sharing. */
let places = new Map<number, EntryPlace>();
const MAX_PLACES = 10_000;

/** The shared place with these fields (a file whose store, tier or path changed under its id gets a new one). */
export function placeOf(fileId: number, tier: EntryTier, collection: EntryCollection, storeKey: string, file: string): EntryPlace {
  const known = places.get(fileId);
  if (known && known.tier === tier && known.collection === collection && known.storeKey === storeKey && known.file === file) return known;
  if (places.size >= MAX_PLACES) places = new Map();
  const place = Object.freeze({ tier, collection, storeKey, file, fileId });
  places.set(fileId, place);
  return place;
}
