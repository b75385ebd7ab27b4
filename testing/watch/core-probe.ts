/**
 * Test helper run as a child process (`node --import tsx core-probe.ts PROJECT HIVE USERDATA`),
 * possibly as another user: opens the console core on a workspace and prints one JSON line per
 * change with the knowledge and hive stores' status and the ids of the entries shown, so a test
 * can watch a core that is not root react to folders losing and regaining access.
 */
import { createConsoleCore } from '../../main/core/console-core';

const [project, hive, userDataDir] = process.argv.slice(2) as [string, string, string];
const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'probe' }, { project, hive });

async function report(): Promise<void> {
  const summary = await core.dispatcher.call('stores.summary', {});
  const entries = await core.dispatcher.call('stores.entries', { limit: 500 });
  if (!summary.ok || !entries.ok) return void process.stdout.write(`${JSON.stringify({ error: true })}\n`);
  const status = Object.fromEntries((summary.value as any).stores.filter((s: any) => s.key === 'knowledge' || s.key === 'hive').map((s: any) => [s.key, s.status]));
  process.stdout.write(`${JSON.stringify({ status, ids: (entries.value as any).items.map((e: any) => e.id).sort() })}\n`);
}

let reporting = Promise.resolve();
core.dispatcher.subscribe('stores.changes', {}, () => {
  reporting = reporting.then(report);
});
await report();
// Runs until the parent closes stdin.
process.stdin.resume();
process.stdin.on('end', () => void core.dispose().then(() => process.exit(0)));
