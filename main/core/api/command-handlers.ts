import type { CoreContext } from './context';
import type { CallHandlers } from './dispatcher';
import type { HumanServices } from '../commands/runner';
import { HIVE_QUARANTINE_OP, HIVE_ROLLBACK_OP, hivePaths } from '../commands/hive/hive-paths';
import { commitHiveQuarantine, previewHiveQuarantine } from '../commands/hive/quarantine';
import { commitHiveRollback, previewHiveRollback } from '../commands/hive/rollback';
import { hiveQuarantineStatus } from '../commands/hive/backups';

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
>;

/** Human-only commands (hive quarantine and its rollback) and the console's audit log. */
export function createCommandHandlers(ctx: CoreContext, human: HumanServices): CommandHandlers {
  const plural = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
  human.describe(HIVE_QUARANTINE_OP, (p) => `hive quarantine of ${plural(p.ids.length)}`);
  human.describe(HIVE_ROLLBACK_OP, (p) => `rollback of hive quarantine ${p.bind.backup ?? ''} (${plural(p.ids.length)})`);
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
    'hive.quarantine.status': () => hiveQuarantineStatus(hivePaths(workspace().hiveDir)),
    'hive.rollback.preview': ({ token }, caller) => previewHiveRollback(human, caller, workspace(), token),
    'hive.rollback.commit': (input, caller) => commitHiveRollback(human, caller, workspace(), input),
  };
}
