/** Display helpers of the receipts view (text only, never HTML). */

/** `1h 05m`, `3m 20s`, `450 ms`, `2d 4h`: the time from display to an answer, or how long something is open. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 0) return `-${duration(-ms)}`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}


/** First 8 characters of a UUID-like id; the full id goes in the title. */
export const shortId = (id: string | null | undefined): string => (!id ? '—' : id.length > 12 ? id.slice(0, 8) : id);

/** `5a3c…9f10` for a 64-hex hash, unchanged otherwise. */
export const shortHash = (hash: string | null | undefined): string => (!hash ? '—' : /^[0-9a-f]{64}$/.test(hash) ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash);

export const bytes = (n: number | null | undefined): string => {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
};

/** Badge tone of a file state. */
export function stateTone(state: string): string {
  switch (state) {
    case 'ok':
      return 'ok';
    case 'absent':
      return 'muted';
    case 'corrupt':
    case 'unsupported_schema':
    case 'unreadable':
      return 'danger';
    default:
      return 'warn';
  }
}

export const stateLabel = (state: string): string => (state === 'stale' ? 'snapshot stale' : state.replace(/_/g, ' '));

const SOURCE_LABELS: Record<string, string> = {
  delegate: 'delegate',
  reviewer: 'reviewer',
  architect: 'architect',
  architect_marker: 'architect marker',
  test_engineer: 'test engineer',
  phase_override: 'phase override',
  manual: 'manual',
  migration: 'migration',
  unknown: 'unknown',
};
export const sourceLabel = (source: string): string => SOURCE_LABELS[source] ?? source;

const RELEASE_LABELS: Record<string, string> = {
  denial_limit: 'denial-limit release',
  staleness: 'staleness release',
  session_reset: 'session reset',
};
export const releaseLabel = (kind: string): string => RELEASE_LABELS[kind] ?? kind;

const ORIGIN_LABELS: Record<string, string> = {
  v2: 'V2 journal',
  archive: 'V2 archive',
  'knowledge-events': 'knowledge-events.jsonl',
  'knowledge-application': 'knowledge-application.jsonl',
  'unacknowledged-criticals': 'unacknowledged-criticals.jsonl',
  'swarm-events': 'events.jsonl',
};
export const originLabel = (origin: string): string => ORIGIN_LABELS[origin] ?? origin;

export const outcomeLabel = (outcome: string): string => (outcome === 'n_a' ? 'n/a' : outcome);
