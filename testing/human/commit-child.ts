/**
 * A separate process that commits a hive quarantine, for the crash-safety and concurrency tests:
 * `run-ts.mjs commit-child.ts <userData> <project> <hive> <token> [lockWaitMs] [hive|swarm]`. The person is a
 * fake that presses OK. Prints the result as JSON on stdout; `SWARM_CONSOLE_PAUSE_AT` stops it at
 * a step (see write/pause-points.ts) so the test can kill it there.
 */
import { resolveWorkspacePaths } from '../../main/core/platform/paths/workspace-paths';
import { HIVE_QUARANTINE_OP } from '../../main/core/hive/hive-paths';
import { commitHiveQuarantine } from '../../main/core/hive/quarantine';
import { commitSwarmQuarantine } from '../../main/core/swarm/quarantine-restore';
import { SWARM_QUARANTINE_OP } from '../../main/core/swarm/swarm-store';
import { HumanServices } from '../../main/core/human/runner';
import { FakeConfirmation } from './fake-confirmation';

const [userDataDir, project, hive, token, lockWaitMs, tier] = process.argv.slice(2) as [string, string, string, string, string | undefined, string | undefined];
const services = new HumanServices({ userDataDir, consoleVersion: 'test', lockWaitMs: Number(lockWaitMs ?? 5_000), revertCheckMs: 3_600_000 });
services.describe(HIVE_QUARANTINE_OP, (p) => `hive quarantine of ${p.ids.length} entries`);
services.describe(SWARM_QUARANTINE_OP, (p) => `quarantine of ${p.ids.length} entries`);
const caller = { host: 'electron' as const, confirmation: new FakeConfirmation(true) };
try {
  const commit = tier === 'swarm' ? commitSwarmQuarantine : commitHiveQuarantine;
  const result = await commit(services, caller, resolveWorkspacePaths(project, hive, 'flag', false), { token, reason: 'crash test', confirmation: {} });
  process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
  process.exit(0);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`);
  process.exit(1);
}
