import type { Rng } from './rng';

export type Category =
  | 'process'
  | 'architecture'
  | 'tooling'
  | 'security'
  | 'testing'
  | 'debugging'
  | 'performance'
  | 'integration'
  | 'todo'
  | 'other';

/**
 * Lesson material for the seeded filler. Every situation reads well with every action of its
 * topic, and two lessons share at most one clause, which keeps accidental near-duplicates
 * (word-bigram Jaccard ≥ 0.6) out of the filler; the intended duplicates are curated.
 */
interface Topic {
  category: Exclude<Category, 'todo'>;
  tags: string[];
  /** Node-specific advice is stored with `stack:node` scope. */
  nodeOnly?: boolean;
  situations: string[];
  actions: string[];
  agents: string[];
  tools: string[];
}

const TOPICS: Topic[] = [
  {
    category: 'testing',
    tags: ['testing', 'ci'],
    situations: [
      'When a snapshot test fails right after a fixture edit',
      'Before delegating review of a change to the reconciliation job',
      'After bumping the vitest major version',
      'When a test fails only on the CI runners',
      'Before marking a task that adds endpoints as complete',
      'When writing the regression test for a production incident',
      'When a flaky test blocks the merge queue twice in a day',
    ],
    actions: [
      'run the single affected test file first and leave the full suite to CI',
      'record the failing seed and rerun with that seed pinned',
      'run the test against a freshly migrated database rather than the shared dev copy',
      'read the snapshot diff line by line before regenerating anything',
      'commit the failing input as a named fixture so the case stays documented',
      'run the suite twice in random order to expose order-dependent state',
      'quarantine the test behind a tracking issue instead of retrying it silently',
    ],
    agents: ['coder', 'test_engineer', 'reviewer'],
    tools: ['task', 'update_task_status'],
  },
  {
    category: 'architecture',
    tags: ['migrations', 'database'],
    situations: [
      'Before renaming a column on the invoices table',
      'When a migration backfills the ledger entries',
      'When adding a foreign key to a table with live traffic',
      'Before dropping a column that a background worker still reads',
      'When splitting the payments schema into two services',
      'When a migration changes a default value',
      'Before adding a unique index to the customers table',
    ],
    actions: [
      'ship the additive change first and remove the old shape in a later deploy',
      'write the down migration and run it once locally before merging',
      'create the index concurrently so writes are not blocked during deploy',
      'batch the update in chunks of five thousand rows with a pause between batches',
      'check the migration plan with the on-call engineer before the release window',
      'keep the old read path behind a flag until the worker fleet is redeployed',
      'count the affected rows on a production snapshot and note the number in the plan',
    ],
    agents: ['architect', 'coder'],
    tools: ['task', 'save_plan'],
  },
  {
    category: 'security',
    tags: ['security', 'secrets'],
    situations: [
      'When adding a new outbound webhook destination',
      'Before logging a request body from the payments API',
      'When a dependency audit reports a critical advisory',
      'When adding an admin-only route',
      'Before sharing a failing request in a task note',
      'When rotating the signing key for customer webhooks',
      'When a new environment variable carries a credential',
    ],
    actions: [
      'redact tokens and card data with the shared redaction helper',
      'check the route against the role matrix and add an authorization test',
      'pin the patched version and add the advisory id to the changelog entry',
      'keep both keys valid for one overlap window and log which key verified each call',
      'register the variable in the config schema so a missing value fails at startup',
      'verify the destination host against the allow-list before the first delivery',
      'strip cookies and authorization headers from anything copied into evidence files',
    ],
    agents: ['coder', 'reviewer', 'architect'],
    tools: ['task', 'phase_complete'],
  },
  {
    category: 'tooling',
    tags: ['tooling', 'build'],
    nodeOnly: true,
    situations: [
      'When the lockfile changes in a pull request that only touches docs',
      'After switching the package manager on a branch',
      'When the TypeScript build is slower than two minutes',
      'When a native module fails to load after an upgrade',
      'Before adding a new dev dependency for a one-off script',
      'When eslint and prettier disagree on a rule',
      'When a postinstall script downloads binaries',
    ],
    actions: [
      'regenerate the lockfile from a clean install and review the resolved versions',
      'enable incremental builds and check the tsbuildinfo files are not committed',
      'rebuild the native module against the exact runtime version used in CI',
      'prefer an npx invocation with a pinned version over a permanent dependency',
      'let prettier own formatting and turn the conflicting eslint rule off',
      'cache the downloaded binaries in CI and fail loudly when the checksum differs',
      'run the build with the same Node version that the Dockerfile declares',
    ],
    agents: ['coder'],
    tools: ['task'],
  },
  {
    category: 'debugging',
    tags: ['debugging', 'observability'],
    situations: [
      'When a refund succeeds at the provider but our ledger shows it pending',
      'When memory grows steadily in the export worker',
      'When an error only appears behind the load balancer',
      'When a cron job silently stops producing reports',
      'When timestamps in the reporting export drift by one hour',
      'When the retry queue grows faster than it drains',
      'When a customer reports a double charge',
    ],
    actions: [
      'write down the timeline from the logs before forming a theory',
      'reproduce it with production-shaped data before changing any code',
      'add one structured log line with the correlation id at each hop',
      'compare a good and a bad case side by side and list every difference',
      'bisect the deploys between the last good run and the first bad one',
      'check the dashboards for the same time window before reading the code',
      'capture the exact inputs as a fixture for the regression test first',
    ],
    agents: ['coder', 'architect'],
    tools: ['task'],
  },
  {
    category: 'performance',
    tags: ['performance', 'database'],
    situations: [
      'When the invoice listing endpoint exceeds its latency budget',
      'Before adding an ORM relation that loads line items',
      'When a nightly batch job overlaps with business hours',
      'When a report query scans the whole payments table',
      'When JSON serialisation shows up in the CPU profile',
      'When the connection pool is exhausted under load tests',
      'Before caching a computed balance',
    ],
    actions: [
      'capture the query plan with production-like row counts before tuning',
      'load the relation explicitly in one query instead of per row',
      'move the heavy step to a queue and stream results in pages of five hundred',
      'add a covering index and measure it on the staging snapshot',
      'serialise once at the edge and pass plain objects between layers',
      'cap the pool per worker and add a timeout so callers fail fast',
      'define the invalidation event first and write it next to the cache key',
    ],
    agents: ['coder', 'reviewer'],
    tools: ['task'],
  },
  {
    category: 'integration',
    tags: ['integration', 'webhooks'],
    situations: [
      'When the payment provider changes a webhook payload version',
      'When an upstream API starts returning 429 responses',
      'Before switching the sandbox credentials to production',
      'When a webhook arrives before the API call that created the object returns',
      'When the accounting export rejects a batch',
      'When a partner API times out during checkout',
      'When the provider SDK adds a new required field',
    ],
    actions: [
      'accept both payload versions behind a parser that records which one arrived',
      'honour the Retry-After header and cap retries with jitter',
      'run the provider contract tests against both environments',
      'store the event and reconcile it when the object appears instead of failing',
      'validate each row against the export schema and report the first failing line',
      'return a pending state to the client and finish the work asynchronously',
      'pin the SDK version and update it in a dedicated task with its changelog linked',
    ],
    agents: ['coder', 'architect'],
    tools: ['task', 'save_plan'],
  },
  {
    category: 'process',
    tags: ['process', 'delegation'],
    situations: [
      'Before delegating a task that touches more than three modules',
      'When a reviewer rejects the same task twice',
      'When a plan phase has more than eight tasks',
      'Before marking a phase complete',
      'When the coder reports a blocker it cannot reproduce',
      'When a task description mentions a file that no longer exists',
      'When two tasks edit the same module in parallel',
    ],
    actions: [
      'restate the acceptance criteria in the task before delegating again',
      'name the exact files and tests in the delegation message',
      'record the decision and its reason in the plan before moving on',
      'ask for the command output as evidence instead of a summary',
      'refresh the plan from the repository before delegating',
      'split the work into tasks a reviewer can check in one sitting',
      'note the dependency in the plan and serialise the affected tasks',
    ],
    agents: ['architect'],
    tools: ['task', 'save_plan', 'update_task_status', 'phase_complete'],
  },
  {
    category: 'architecture',
    tags: ['architecture', 'boundaries'],
    situations: [
      'When a new feature needs data owned by the ledger service',
      'When a helper module is imported from more than five places',
      'Before introducing a new background queue',
      'When a domain rule is duplicated in the API and the worker',
      'When an endpoint needs to call three internal services',
      'Before adding a field to the public refund response',
      'When a feature flag has been fully rolled out for a month',
    ],
    actions: [
      'read through the published API of the owner instead of its tables',
      'move the rule into the domain package and import it from both sides',
      'write down the delivery guarantee and the retry owner in the design note',
      'add the field as optional first and document it in the changelog',
      'remove the flag and the dead branch in the same task',
      'compose the calls in one orchestrator with a single timeout budget',
      'give the module an owner in CODEOWNERS before it grows further',
    ],
    agents: ['architect', 'coder'],
    tools: ['task', 'save_plan'],
  },
  {
    category: 'other',
    tags: ['docs', 'communication'],
    situations: [
      'When a behaviour change affects merchants',
      'Before closing an incident ticket',
      'When a runbook step no longer matches the tooling',
      'When an architecture decision is reversed',
      'When a task produces a new operational alert',
      'Before handing a phase over to another session',
      'When an API error message is shown to end users',
    ],
    actions: [
      'add a dated entry to the merchant changelog with the migration steps',
      'link the postmortem and the follow-up tasks in the ticket',
      'fix the runbook in the same change that altered the tooling',
      'write a superseding decision record rather than editing the old one',
      'document what the alert means and the first action to take',
      'leave a short status note with open questions at the top of the plan',
      'keep the message actionable and free of internal identifiers',
    ],
    agents: ['architect', 'docs'],
    tools: ['task'],
  },
];

interface FillerLesson {
  lesson: string;
  category: Exclude<Category, 'todo'>;
  tags: string[];
  scope: string;
  agents: string[];
  tools: string[];
  action: string;
  situation: string;
}

/**
 * Hands out distinct situation×action combinations, each at most once over the whole demo
 * (swarm, hive and link tiers draw from the same dealer so no two tiers repeat a lesson by
 * accident; counterparts are copied on purpose instead).
 */
export class LessonDealer {
  private readonly deck: Array<[number, number, number]> = [];
  private cursor = 0;

  constructor(rng: Rng) {
    const combos: Array<[number, number, number]> = [];
    TOPICS.forEach((topic, t) => {
      for (let s = 0; s < topic.situations.length; s++) for (let a = 0; a < topic.actions.length; a++) combos.push([t, s, a]);
    });
    this.deck = rng.sample(combos, combos.length);
  }

  get remaining(): number {
    return this.deck.length - this.cursor;
  }

  next(): FillerLesson {
    const combo = this.deck[this.cursor++ % this.deck.length] as [number, number, number];
    const [t, s, a] = combo;
    const topic = TOPICS[t] as Topic;
    const situation = topic.situations[s] as string;
    const action = topic.actions[a] as string;
    return {
      lesson: `${situation}, ${action}.`,
      category: topic.category,
      tags: topic.tags.slice(),
      scope: topic.nodeOnly ? 'stack:node' : 'global',
      agents: topic.agents.slice(),
      tools: topic.tools.slice(),
      action,
      situation: situation.replace(/^(When|Before|After) /, '').replace(/^./, (c) => c.toLowerCase()),
    };
  }
}

/** Synthetic lessons for benchmark-sized stores: cheap, distinct, still readable. */
export function scaleLesson(index: number): { lesson: string; category: Exclude<Category, 'todo'>; tags: string[]; scope: string } {
  const topic = TOPICS[index % TOPICS.length] as Topic;
  const situation = topic.situations[Math.floor(index / TOPICS.length) % topic.situations.length] as string;
  const action = topic.actions[Math.floor(index / (TOPICS.length * 7)) % topic.actions.length] as string;
  return {
    lesson: `${situation} (case ${index}), ${action}.`,
    category: topic.category,
    tags: topic.tags.slice(),
    scope: topic.nodeOnly ? 'stack:node' : 'global',
  };
}

export const TODO_LESSONS = [
  'TODO: replace the hand-rolled retry loop in the payout client with the shared backoff helper.',
  'TODO: add a contract test for the accounting export once the partner publishes the v3 schema.',
  'TODO: remove the legacy refunds v1 route after the last merchant migrates off it.',
  'TODO: move the currency rounding table into the domain package and delete the API copy.',
  'TODO: document the on-call steps for a stuck reconciliation batch in the runbook.',
  'TODO: split the invoice PDF renderer out of the API process before the holiday peak.',
];
