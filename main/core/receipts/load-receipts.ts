import { readLegacySources } from './legacy-sources';
import { readEscapeHatches } from './receipt-config';
import type { FactsLookup } from './directive-facts';
import { buildReceiptsModel, receiptEntryIds, type ReceiptsModel } from './receipts-model';
import { verifyReceipts } from './verify-receipts';

export interface ReceiptPaths {
  projectDir: string;
  /** `<project>/.swarm` — where the V2 files, unacknowledged-criticals and events.jsonl live. */
  swarmDir: string;
  /** Link-aware home of knowledge-events.jsonl and knowledge-application.jsonl. */
  knowledgeDir: string;
  allowSymlinksOutside?: boolean;
}

export interface LoadOptions {
  now?: () => number;
  /** Environment used to find the user plugin config (tests point XDG_CONFIG_HOME elsewhere). */
  env?: Record<string, string | undefined>;
  /** The knowledge records of the entries the receipts name (priority, enforcement, counters); absent: nothing is derived. */
  facts?: FactsLookup;
}

/** Verifies the V2 files, reads the legacy logs and the escape-hatch config, and builds the model. */
export async function loadReceipts(paths: ReceiptPaths, options: LoadOptions = {}): Promise<ReceiptsModel> {
  const [verified, legacy] = await Promise.all([
    verifyReceipts(paths.swarmDir, { collect: true, confineTo: paths.allowSymlinksOutside ? undefined : [paths.projectDir, paths.knowledgeDir], ...(options.now ? { now: options.now } : {}) }),
    readLegacySources(paths),
  ]);
  const hatches = readEscapeHatches({ projectDir: paths.projectDir, ...(options.env ? { env: options.env } : {}) });
  const records = { journalRecords: verified.journalRecords, archiveRecords: verified.archiveRecords, legacy };
  const facts = options.facts ? await options.facts(receiptEntryIds(records)).catch(() => undefined) : undefined;
  return buildReceiptsModel({ integrity: verified.integrity, ...records, hatches, ...(facts ? { facts } : {}) });
}
