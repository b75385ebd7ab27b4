/**
 * Appends `count` records to an audit log from its own process, starting at `startAt` (epoch ms) so
 * two children really append at the same time: `run-ts.mjs audit-child.ts <file> <count> <tag> <startAt>`.
 */
import { AuditLog } from '../../main/core/human/audit-log';

const [file, count, tag, startAt] = process.argv.slice(2) as [string, string, string, string];
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const log = new AuditLog(file);
for (let i = 0; i < Number(count); i++) await log.append({ event: 'preview', op: 'hive.quarantine.commit', outcome: 'ok', host: tag, ids: [`${tag}-${i}`] });
