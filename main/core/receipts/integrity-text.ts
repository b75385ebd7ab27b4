import type { FileIntegrity } from '../../../shared/contract/receipts';
import { REPAIR_TOOL, V2_FILES, type ChainFileKind } from '../rules/receipt-format';
import type { ChainFileReport } from './chain-report';

/**
 * Turns a verification report into what an operator reads: a one-line reason, the plugin's view
 * of an unterminated tail, and the recovery the plugin documents (the console never repairs).
 */

const short = (hex: string) => (/^[0-9a-f]{64}$/.test(hex) ? `${hex.slice(0, 12)}…` : hex.length > 60 ? `${hex.slice(0, 57)}…` : hex);
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

const ABSENT: Record<ChainFileKind, string> = {
  journal: 'absent — no V2 receipt journal (normal: the installed plugin writes only the legacy logs)',
  archive: 'absent — nothing archived yet (normal)',
  quarantine: 'absent — no repair has ever captured bytes (normal)',
};

const TAIL_PLUGIN_VIEW =
  'The console reads an unterminated last line as still being written. The plugin itself counts an unterminated final line as corruption (defect unterminated_final_line) if it is still there when the ledger is next used.';

function span(report: ChainFileReport): string {
  if (report.verifiedRecords === 0) return 'no complete records';
  const gen = report.generation !== null ? `, generation ${report.generation}` : '';
  return `${plural(report.verifiedRecords, 'record')} verified (seq ${report.firstSeq}–${report.lastSeq}${gen})`;
}

function reasonFor(report: ChainFileReport): string {
  switch (report.state) {
    case 'absent':
      return ABSENT[report.kind];
    case 'ok':
      return `ok — ${span(report)}${report.checkpoints ? `, ${plural(report.checkpoints, 'checkpoint')}` : ''}`;
    case 'unreadable':
      return `unreadable — ${report.osError?.code ?? 'error'}: ${report.osError?.message ?? 'could not be read'}`;
    case 'incomplete_tail': {
      const tail = report.tail as NonNullable<ChainFileReport['tail']>;
      return `incomplete tail — line ${tail.line} (byte ${tail.byteOffset}, ${plural(tail.byteLength, 'byte')}) has no newline yet: still being written or torn; ${span(report)} before it`;
    }
    case 'legacy_unverifiable': {
      const phases = [...new Set(report.uncertainty.filter((u) => u.kind === 'legacy_unverifiable').map((u) => u.phase ?? 'unknown phase'))];
      return `chain ok (${span(report)}) — migrated legacy_unverifiable uncertainty for ${phases.join(', ')}: those receipts cannot be verified`;
    }
    case 'unsupported_schema': {
      const b = report.break as NonNullable<ChainFileReport['break']>;
      return `unsupported schema at line ${b.line} (byte ${b.byteOffset}): ${JSON.stringify(b.found)}; this console reads ${b.expected}; the plugin fails closed`;
    }
    case 'corrupt': {
      const b = report.break as NonNullable<ChainFileReport['break']>;
      const where = `line ${b.line} (byte ${b.byteOffset}${b.seq !== null ? `, seq ${b.seq}` : ''})`;
      return `corrupt at ${where}: ${b.defect.replace(/_/g, ' ')} — expected ${short(b.expected)}, found ${short(b.found)}; ${span(report)} before it`;
    }
    default:
      return report.state;
  }
}

function recoveryFor(report: ChainFileReport): FileIntegrity['recovery'] {
  const broken = report.state === 'corrupt' || report.state === 'unsupported_schema' || report.state === 'incomplete_tail';
  if (!broken) return null;
  const phase = report.lastPhase;
  const sessionId = report.lastSessionId;
  const args = `phase ${JSON.stringify(phase ?? '<phase>')}, session ${JSON.stringify(sessionId ?? '<session>')} and a reason`;
  const prefix = report.verifiedRecords > 0 ? `the validated prefix (seq ${report.firstSeq}–${report.lastSeq})` : 'an empty valid prefix';
  const repair =
    `Run ${REPAIR_TOOL} with ${args}: it captures the exact bytes of ${V2_FILES.journal} into ${V2_FILES.quarantine} and installs only ${prefix}. ` +
    'That phase/session stays uncertain until a comprehensive knowledge_recall runs with repair_re_evaluation {repair_id, phase, scope_complete: true}. ' +
    'The console never repairs; do not edit or truncate the journal by hand.';
  if (report.kind !== 'journal') {
    const text = `The ${report.kind} keeps its own hash chain and the plugin documents no separate repair for it; it is read-only here. Keep a copy before anything touches it. ${repair}`;
    return { tool: REPAIR_TOOL, phase, sessionId, text };
  }
  if (report.state === 'incomplete_tail') {
    return { tool: REPAIR_TOOL, phase, sessionId, text: `If a session is writing right now, wait: the console verifies again when the line completes. If no session is running, the plugin fails closed on its next ledger operation. ${repair}` };
  }
  if (report.state === 'unsupported_schema') {
    return { tool: REPAIR_TOOL, phase, sessionId, text: `A newer plugin may have written this record: use a console that knows its schema. If the record is damaged instead, the plugin fails closed. ${repair}` };
  }
  return { tool: REPAIR_TOOL, phase, sessionId, text: `The plugin fails its gates closed until the ledger is repaired. ${repair}` };
}

export function chainIntegrity(report: ChainFileReport): FileIntegrity {
  return {
    kind: report.kind,
    name: V2_FILES[report.kind],
    path: report.path,
    state: report.state,
    reason: reasonFor(report),
    bytes: report.state === 'absent' || report.state === 'unreadable' ? null : report.bytes,
    lines: report.lines,
    records: report.verifiedRecords,
    firstSeq: report.firstSeq,
    lastSeq: report.lastSeq,
    lastHash: report.lastHash,
    generation: report.generation,
    checkpoints: report.checkpoints,
    nonCanonicalLines: report.nonCanonicalLines,
    break: report.break,
    tail: report.tail ? { ...report.tail, pluginView: TAIL_PLUGIN_VIEW } : null,
    osError: report.osError,
    uncertainty: report.uncertainty,
    snapshot: null,
    recovery: recoveryFor(report),
  };
}
