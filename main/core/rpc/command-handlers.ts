import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';
import type { HumanServices } from '../human/runner';
import { HIVE_QUARANTINE_OP, HIVE_ROLLBACK_OP, hivePaths } from '../hive/hive-paths';
import { commitHiveQuarantine, previewHiveQuarantine } from '../hive/quarantine';
import { commitHiveRollback, previewHiveRollback } from '../hive/rollback';
import { hiveQuarantineStatus } from '../hive/backups';
import { workspaceRoots } from '../stores/containment';
import { commitSwarmQuarantine, commitSwarmRestore, previewSwarmQuarantine, previewSwarmRestore } from '../swarm/quarantine-restore';
import { commitSwarmPromote, previewSwarmPromote } from '../swarm/promote';
import { commitSwarmArchive, previewSwarmArchive } from '../swarm/archive';
import { SWARM_ARCHIVE_OP, SWARM_PROMOTE_OP, SWARM_QUARANTINE_OP, SWARM_RESTORE_OP } from '../swarm/swarm-store';

type CommandHandlers = Pick<
  CallHandlers,
  | 'human.availability'
  | 'human.beginConfirmation'
  | 'audit.list'
  | 'hive.quarantine.preview'
  | 'hive.quarantine.commit'
  | 'hive.quarantine.status'
  | 'hive.rollback.preview'
  | 'hive.rollback.commit'
  | 'swarm.quarantine.preview'
  | 'swarm.quarantine.commit'
  | 'swarm.archive.preview'
  | 'swarm.archive.commit'
  | 'swarm.restore.preview'
  | 'swarm.restore.commit'
  | 'swarm.promote.preview'
  | 'swarm.promote.commit'
>;

/** Human-only commands (hive quarantine and its rollback) and the console's audit log. */
export function createCommandHandlers(ctx: CoreContext, human: HumanServices): CommandHandlers {
  const plural = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
  human.describe(HIVE_QUARANTINE_OP, (p) => `hive quarantine of ${plural(p.ids.length)}`);
  human.describe(HIVE_ROLLBACK_OP, (p) => `rollback of hive quarantine ${p.bind.backup ?? ''} (${plural(p.ids.length)})${p.bind.trust_label && p.bind.trust !== 'signed' ? ` — a backup ${p.bind.trust_label}` : ''}`);
  human.describe(SWARM_QUARANTINE_OP, (p) => `quarantine of ${plural(p.ids.length)} of the project's knowledge`);
  human.describe(SWARM_ARCHIVE_OP, (p) => `archive of ${plural(p.ids.length)} of the project's knowledge (status archived; restorable)`);
  human.describe(SWARM_RESTORE_OP, (p) => `restore of ${plural(p.ids.length)} of the project's knowledge`);
  human.describe(SWARM_PROMOTE_OP, (p) => `promotion of ${p.ids[0] ?? ''} to the hive as ${p.bind.new_id ?? ''}`);
  const workspace = () => ctx.workspaces.current.paths;

  return {
    'human.availability': (_input, caller) => {
      const availability = caller.confirmation.availability();
      return availability.enabled ? { enabled: true, mode: availability.mode, reason: null } : { enabled: false, mode: 'none', reason: availability.reason };
    },
    'human.beginConfirmation': ({ token }, caller) => human.beginConfirmation(caller, token),
    'audit.list': () => {
      const { records, chain } = human.audit.read();
      return {
        path: human.audit.file,
        chain,
        unreadable: records.flatMap((r, i) => (r === null ? [i + 1] : [])),
        records: records.flatMap((r) =>
          r === null
            ? []
            : [
                {
                  seq: r.seq,
                  at: r.at,
                  event: r.event,
                  op: r.op,
                  outcome: r.outcome,
                  host: r.host,
                  token12: r.token12 ?? null,
                  ids: r.ids ?? [],
                  reason: r.reason ?? null,
                  binding: r.binding ?? null,
                  message: r.message ?? null,
                  backup: r.backup ?? null,
                },
              ],
        ),
      };
    },
    'hive.quarantine.preview': ({ ids }, caller) => previewHiveQuarantine(human, caller, workspace(), ids),
    'hive.quarantine.commit': (input, caller) => commitHiveQuarantine(human, caller, workspace(), input),
    'hive.quarantine.status': () => hiveQuarantineStatus(hivePaths(workspace().hiveDir), human.backupSigningKey(), workspaceRoots(workspace())),
    'hive.rollback.preview': ({ token, allowUnsigned }, caller) => previewHiveRollback(human, caller, workspace(), { prefix: token, allowUnsigned: allowUnsigned === true }),
    'hive.rollback.commit': (input, caller) => commitHiveRollback(human, caller, workspace(), input),
    'swarm.quarantine.preview': ({ ids }, caller) => previewSwarmQuarantine(human, caller, workspace(), ids),
    'swarm.quarantine.commit': (input, caller) => commitSwarmQuarantine(human, caller, workspace(), input),
    'swarm.archive.preview': ({ ids }, caller) => previewSwarmArchive(human, caller, workspace(), ids),
    'swarm.archive.commit': (input, caller) => commitSwarmArchive(human, caller, workspace(), input),
    'swarm.restore.preview': ({ ids }, caller) => previewSwarmRestore(human, caller, workspace(), ids),
    'swarm.restore.commit': (input, caller) => commitSwarmRestore(human, caller, workspace(), input),
    'swarm.promote.preview': ({ id }, caller) => previewSwarmPromote(human, caller, workspace(), id),
    'swarm.promote.commit': (input, caller) => commitSwarmPromote(human, caller, workspace(), input),
  };
}
