import { z } from 'zod';
import { command, HumanCommitFields, humanCommit, humanPreview, NoInput, query } from './define';

/**
 * Human-only commands (issue 11): every write to a plugin store is a preview (what would happen,
 * plus a confirmation token) and a commit (the token plus the person's confirmation). Hive
 * quarantine and its rollback live here; the console's own audit log too.
 */

const EntryId = z.string().min(1).max(200);

const HumanAvailability = z.object({
  enabled: z.boolean(),
  /** dialog: Electron's native dialog asks; code: type the code printed on the serve terminal. */
  mode: z.enum(['dialog', 'code', 'none']),
  /** Why human-only actions are disabled here (shown on screen). */
  reason: z.string().nullable(),
});

const StoreFingerprintShape = z.object({
  path: z.string(),
  entryCount: z.number().int(),
  lineCount: z.number().int(),
  byteLength: z.number().int(),
  fileSha256: z.string(),
});

const PreviewEntry = z.object({
  id: z.string(),
  status: z.string().nullable(),
  confidence: z.number().nullable(),
  sourceProject: z.string().nullable(),
  lineageActor: z.string().nullable(),
  lineSha256: z.string(),
  lineIndex: z.number().int(),
  lesson: z.string(),
});

export const BlastRadius = z.object({
  /** Generated skills whose `source_knowledge_ids` cite the entry. */
  skills: z.array(z.object({ entryId: z.string(), skill: z.string(), path: z.string() })),
  /** Projects in the entry's `confirmed_by`. */
  confirmedBy: z.array(z.object({ entryId: z.string(), project: z.string() })),
  /** Link stores (`links/<id>/knowledge.jsonl`) holding an entry with the same id. */
  linkStores: z.array(z.object({ entryId: z.string(), linkId: z.string() })),
  /** Lines of the open project's directive, receipt and event logs that mention the id. */
  references: z.array(z.object({ entryId: z.string(), file: z.string(), lines: z.number().int() })),
  /** Files too large to scan, or unreadable: the radius above may be incomplete. */
  notes: z.array(z.string()),
});

export const HumanPreviewBase = z.object({
  token: z.string(),
  token12: z.string(),
  expiresAt: z.string(),
  consoleVersion: z.string(),
  store: StoreFingerprintShape,
});

export const HiveQuarantinePreview = HumanPreviewBase.extend({
  entries: z.array(PreviewEntry),
  blastRadius: BlastRadius,
});

const HiveQuarantinePreviewInput = z.object({ ids: z.array(EntryId).min(1).max(100) }).strict();
const HiveQuarantineCommitInput = z.object(HumanCommitFields).strict();

export const WriteResult = z.object({
  /** committed | rolled_back | nothing_to_do | verify_failed_restored | verify_failed_restore_failed */
  state: z.string(),
  token12: z.string(),
  backup: z.string().nullable(),
  ids: z.array(z.string()),
  before: z.object({ entryCount: z.number().int(), fileSha256: z.string() }),
  after: z.object({ entryCount: z.number().int(), fileSha256: z.string() }),
  /** What happened, in sentences an operator reads on the result screen. */
  messages: z.array(z.string()),
  /** When the console re-reads the store to catch a concurrent plugin rewrite reverting the change. */
  revertCheckAt: z.string().nullable(),
});

const RollbackPreviewInput = z
  .object({
    /** A token12 prefix (at least 4 hex characters) naming the backup, or null for the latest committed quarantine. */
    token: z.string().regex(/^[0-9a-f]{4,12}$/, 'expected 4-12 hex characters of token12').nullable(),
    /**
     * The person's separate, explicit choice to roll back a backup this console did not sign
     * (planted, from another install, or from before signing). The UI sets it only from its own
     * checkbox; without it such a backup is refused, whether named by prefix or as the latest.
     */
    allowUnsigned: z.boolean().optional(),
  })
  .strict();

/** Who made a backup: this console (its manifest's signature verifies), or not (see backup-signature.ts). */
const BackupTrust = z.enum(['signed', 'unsigned_legacy', 'foreign']);

export const RollbackPreview = HumanPreviewBase.extend({
  backup: z.string(),
  trust: BackupTrust,
  /** "signed by this console", "unsigned (made before signing)" or "not made by this console (unsigned)". */
  trustLabel: z.string(),
  /** Every line it would put back, with its lesson text (store text: render as text). */
  restore: z.array(z.object({ id: z.string(), lineSha256: z.string(), lesson: z.string() })),
  skippedIdentical: z.array(z.string()),
  collisions: z.array(z.object({ id: z.string(), backupSha256: z.string(), liveSha256: z.string() })),
  /** exact: the store is as the quarantine left it, so its original bytes come back whole. */
  method: z.enum(['exact', 'reinsert', 'none']),
});

const BackupStatus = z.object({
  name: z.string(),
  token12: z.string().nullable(),
  createdAt: z.string().nullable(),
  reason: z.string().nullable(),
  ids: z.array(z.string()),
  /** From result.json; `interrupted` when the backup has no result (a crash or a kill mid-commit). */
  state: z.string(),
  /** Whether the backup files still hash to what the manifest says. */
  verified: z.boolean(),
  trust: BackupTrust,
  trustLabel: z.string(),
  problems: z.array(z.string()),
  warnings: z.array(z.string()),
});

export const HiveQuarantineStatus = z.object({
  hive: z.string(),
  backups: z.array(BackupStatus),
  sidecarEntries: z.number().int(),
  /** Why backups are not listed (e.g. quarantine-backups/ is a symlink outside the workspace). */
  notes: z.array(z.string()),
});

const AuditRecordShape = z.object({
  seq: z.number().int(),
  at: z.string(),
  event: z.string(),
  op: z.string(),
  outcome: z.string(),
  host: z.string(),
  token12: z.string().nullable(),
  ids: z.array(z.string()),
  reason: z.string().nullable(),
  binding: z.string().nullable(),
  message: z.string().nullable(),
  backup: z.string().nullable(),
});

const AuditListing = z.object({
  path: z.string(),
  records: z.array(AuditRecordShape),
  /** Lines that did not parse (their line numbers); the chain check says where it broke. */
  unreadable: z.array(z.number().int()),
  chain: z.object({ ok: z.boolean(), records: z.number().int(), brokenAt: z.number().int().nullable(), problem: z.string().nullable() }),
});

export const commandOps = {
  'human.availability': query('Whether this host can ask a person to confirm human-only commands, and why not.', NoInput, HumanAvailability),
  'human.beginConfirmation': command(
    'Starts the confirmation of a previewed command (the browser host prints a one-time code on its terminal).',
    z.object({ token: z.string().min(1).max(16_384) }).strict(),
    z.object({ mode: z.enum(['dialog', 'code']), token12: z.string() }),
  ),
  'audit.list': query('The console’s own audit log of human-only attempts, with its hash-chain check.', NoInput, AuditListing),
  'hive.quarantine.preview': humanPreview('What quarantining these exact hive ids would do, with a confirmation token.', HiveQuarantinePreviewInput, HiveQuarantinePreview),
  'hive.quarantine.commit': humanCommit('Moves the previewed hive entries to the quarantine sidecar (backup first, plugin lock).', HiveQuarantineCommitInput, WriteResult),
  'hive.quarantine.status': query('Hive quarantine backups with their manifests and results (read-only).', NoInput, HiveQuarantineStatus),
  'hive.rollback.preview': humanPreview('What rolling back a hive quarantine would restore, with a confirmation token.', RollbackPreviewInput, RollbackPreview),
  'hive.rollback.commit': humanCommit('Restores the exact original lines of a hive quarantine.', HiveQuarantineCommitInput, WriteResult),
} as const;

/** Swarm and link tier (issue 11, section 5): quarantine, archive, restore and promote-to-hive of a project's entries. */
export const SwarmPreview = HumanPreviewBase.extend({
  action: z.enum(['quarantine', 'restore', 'promote', 'archive']),
  /** swarm: `<project>/.swarm` under `.swarm.lock`; link: `<dataDir>/links/<id>` under `links/<id>.lock`. */
  tier: z.enum(['swarm', 'link', 'hive']),
  linkId: z.string().nullable(),
  storeDir: z.string(),
  entries: z.array(
    z.object({
      id: z.string(),
      /** Where the entry is now: active in knowledge.jsonl, in the quarantine file, or archived in place. */
      from: z.enum(['active', 'quarantined', 'archived']),
      status: z.string().nullable(),
      /** The status a restore gives it back (original_status, the archive tombstone's previous_status, or candidate). */
      restoreTo: z.string().nullable(),
      lineSha256: z.string(),
      lesson: z.string(),
    }),
  ),
  /** Each file the commit would change, and how. */
  effects: z.array(z.string()),
});

const SwarmIds = z.object({ ids: z.array(EntryId).min(1).max(100) }).strict();

export const swarmCommandOps = {
  'swarm.quarantine.preview': humanPreview("What quarantining these exact ids of the project's knowledge would do.", SwarmIds, SwarmPreview),
  'swarm.quarantine.commit': humanCommit('Moves the previewed entries to knowledge-quarantined.jsonl, as /swarm knowledge quarantine does.', HiveQuarantineCommitInput, WriteResult),
  'swarm.archive.preview': humanPreview("What archiving these exact ids of the project's knowledge would do (status archived in place, the plugin's archived event).", SwarmIds, SwarmPreview),
  'swarm.archive.commit': humanCommit("Archives the previewed entries as the plugin's knowledge_archive (mode archive) does; Restore sets their previous status back.", HiveQuarantineCommitInput, WriteResult),
  'swarm.restore.preview': humanPreview('What restoring these quarantined or archived entries would do.', SwarmIds, SwarmPreview),
  'swarm.restore.commit': humanCommit('Restores the previewed entries to their prior status.', HiveQuarantineCommitInput, WriteResult),
  'swarm.promote.preview': humanPreview('What promoting this swarm entry to the hive would write.', z.object({ id: EntryId }).strict(), SwarmPreview),
  'swarm.promote.commit': humanCommit('Appends the previewed hive entry, as /swarm promote --from-swarm does.', HiveQuarantineCommitInput, WriteResult),
} as const;
