import { z } from 'zod';
import { HumanCommitFields, humanCommit, humanPreview, NoInput, query } from './define';
import { HumanPreviewBase, WriteResult } from './commands';
import { EntryItem } from './stores';

/**
 * Knowledge history (issue 20): what the console remembers of every entry store it reads —
 * each entry's line versions, where they lived and when, why an entry disappeared, and named
 * moments. Read-only; the history database is the console's own, never a plugin store.
 */

/**
 * A moment an operator can name: an ISO date-time, `now`, `last-looked` (when this person last had
 * the workspace open) or `phase:N` (when the plugin completed phase N).
 */
export const Moment = z
  .string()
  .min(1)
  .max(64)
  .refine((m) => m === 'now' || m === 'last-looked' || /^phase:\d{1,6}$/.test(m) || (/^\d{4}-\d{2}-\d{2}/.test(m) && !Number.isNaN(Date.parse(m))), 'a moment is an ISO date-time, now, last-looked or phase:N');

const Tier = z.enum(['swarm', 'hive', 'link']);
/** The store file an entry lived in: the active store of its tier, or a side file. */
const EntryKind = z.enum(['active', 'quarantined', 'unactionable', 'rejected', 'hive', 'link']);
const Iso = z.string();

const Reason = z.object({
  code: z.enum(['console-quarantine', 'moved', 'archived-event', 'archived-status', 'todo-sweep', 'cap', 'file-removed', 'removed']),
  text: z.string(),
  /** True where the stores do not say it and the console infers it (worded as such). */
  inference: z.boolean(),
});

/** Set when the change happened while no console was watching: somewhere between `from` and `to`. */
const Unobserved = z.object({ from: Iso, to: Iso, text: z.string() }).nullable();

const FieldDiff = z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() });

const Place = z.object({ tier: Tier, kind: EntryKind, storeKey: z.string(), file: z.string() });

/**
 * Set on a stretch the size budget thinned: it stands for `count` intermediate versions whose lines
 * history no longer keeps (its `record` is null; `sha256` is the last of them). Optional: absent on
 * versions history still holds.
 */
const Thinned = z.object({ count: z.number().int().min(1), text: z.string() }).nullable().optional();

const ChangeRow = z.object({
  change: z.enum(['added', 'removed', 'changed']),
  id: z.string(),
  at: Iso,
  /** Where the entry is at `until` (added, changed) or was at `since` (removed). */
  place: Place,
  lesson: z.string().nullable(),
  fields: z.array(FieldDiff),
  reason: Reason.nullable(),
  unobserved: Unobserved,
});

const Gap = z.object({ from: Iso, to: Iso, text: z.string() });

const ResolvedMoment = z.object({ moment: z.string(), at: Iso });

const ChangesInput = z.object({ since: Moment.default('last-looked'), until: Moment.default('now') }).strict();
const ChangesOutput = z.object({
  since: ResolvedMoment,
  until: ResolvedMoment,
  counts: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() }),
  rows: z.array(ChangeRow),
  /** Stretches of the range when no console or recorder was watching. */
  gaps: z.array(Gap),
  /** History's first observation; changes before it are unknown. */
  historyBegan: Iso.nullable(),
});

const HistoricalEntry = Place.extend({
  id: z.string(),
  sha256: z.string(),
  since: Iso,
  /** The entry's line as it was, parsed (null when the line was not a JSON object, or was thinned). */
  record: z.record(z.string(), z.unknown()).nullable(),
  /** The line as the live table reads it (the core's one derivation of the columns); null when not a JSON object. */
  row: EntryItem.nullable(),
  /** Set when the moment falls in a thinned stretch: which version it was is no longer known. */
  thinned: Thinned,
});

const AsOfInput = z.object({ moment: Moment, offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(5000).default(1000) }).strict();
const AsOfOutput = z.object({
  moment: ResolvedMoment,
  total: z.number().int(),
  entries: z.array(HistoricalEntry),
  /** Set when nobody was watching at that moment: what is shown is the last state recorded before it. */
  note: z.string().nullable(),
  historyBegan: Iso.nullable(),
});

const TimelineInput = z.object({ id: z.string().min(1).max(256) }).strict();
const TimelineVersion = Place.extend({
  sha256: z.string(),
  from: Iso,
  to: Iso.nullable(),
  /** How history learned of it: present when history began, found on opening, or seen live. */
  origin: z.enum(['baseline', 'catch-up', 'live']),
  unobserved: Unobserved,
  fields: z.array(FieldDiff),
  end: Reason.extend({ code: z.union([Reason.shape.code, z.literal('changed')]) }).nullable(),
  record: z.record(z.string(), z.unknown()).nullable(),
  /** Set when this row is a thinned stretch ("12 intermediate versions thinned"), not one version. */
  thinned: Thinned,
});
const TimelineOutput = z.object({ id: z.string(), versions: z.array(TimelineVersion) });

const ForgottenEntry = Place.extend({
  id: z.string(),
  leftAt: Iso,
  reason: Reason,
  unobserved: Unobserved,
  /** Where it is now, if anywhere (a side file, or archived in place). */
  now: z.string().nullable(),
  sha256: z.string(),
  record: z.record(z.string(), z.unknown()).nullable(),
});
const ForgottenOutput = z.object({ entries: z.array(ForgottenEntry) });

const MomentsOutput = z.object({
  now: Iso,
  lastLooked: Iso.nullable(),
  phases: z.array(z.object({ moment: z.string(), phase: z.number().int(), at: Iso, source: z.string() })),
  historyBegan: Iso.nullable(),
  observations: z.array(z.object({ role: z.string(), from: Iso, to: Iso })),
  /** The history database, and what became of an unreadable one (for a banner). */
  store: z.object({ file: z.string(), setAside: z.object({ file: z.string(), reason: z.string(), message: z.string() }).nullable() }),
});

const RestoreInput = z
  .object({
    id: z.string().min(1).max(256),
    /** The version to bring back; default: the entry's last version (what `history.forgotten` lists). */
    sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  })
  .strict();

const RestorePreview = HumanPreviewBase.extend({
  id: z.string(),
  tier: Tier,
  /** The active store the line is appended to (knowledge.jsonl, shared-learnings.jsonl or the link's). */
  storeFile: z.string(),
  /** The version restored (its sha256 as history recorded it) and the exact line the commit appends. */
  versionSha256: z.string(),
  line: z.string(),
  lesson: z.string(),
  /** Why it left, from history. */
  reason: Reason,
  /** Set when the active store holds at least the plugin's cap of entries after the append. */
  cap: z
    .object({
      cap: z.number().int(),
      countAfter: z.number().int(),
      /** The entry the plugin would evict first (its oldest), or null when the console cannot tell. */
      evictFirst: z.object({ id: z.string(), lesson: z.string() }).nullable(),
      text: z.string(),
    })
    .nullable(),
  /** Each file the commit would change, and how. */
  effects: z.array(z.string()),
  warnings: z.array(z.string()),
  /** The status the line is appended with, and where it comes from, in words (its own; a tombstone's previous_status; candidate). */
  restoreStatus: z.string(),
  restoreStatusWhy: z.string(),
});

export const historyOps = {
  'history.changes': query('Entries added, removed (with the reason) and changed (field by field) between two moments, with unobserved stretches.', ChangesInput, ChangesOutput),
  'history.asOf': query('The entries of every store as they were at a moment.', AsOfInput, AsOfOutput),
  'history.timeline': query("One entry's versions: when, where it lived, what changed, why each ended.", TimelineInput, TimelineOutput),
  'history.forgotten': query('Entries that left the active stores without a person quarantining them, with their last version and the reason.', NoInput, ForgottenOutput),
  'history.moments': query('The moments history can resolve: now, when you last looked, phase completions; and the state of the history database.', NoInput, MomentsOutput),
  'history.restore.preview': humanPreview("What restoring a forgotten entry's last version to its active store would write (the plugin's restore: the line appended with status restored).", RestoreInput, RestorePreview),
  'history.restore.commit': humanCommit('Appends the previewed version to its active store under the plugin lock, with status restored, backed up first and verified after.', z.object(HumanCommitFields).strict(), WriteResult),
} as const;

export type RestorePreview = z.infer<typeof RestorePreview>;
export type ChangesOutput = z.infer<typeof ChangesOutput>;
export type AsOfOutput = z.infer<typeof AsOfOutput>;
export type TimelineOutput = z.infer<typeof TimelineOutput>;
export type ForgottenOutput = z.infer<typeof ForgottenOutput>;
export type MomentsOutput = z.infer<typeof MomentsOutput>;
