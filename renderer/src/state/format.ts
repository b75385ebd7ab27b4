/** Display helpers shared by the Knowledge and Directives views (text only, never HTML). */
export const fixed = (value: number | null | undefined, digits = 2): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));

export const count = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : String(value));

/** `2026-07-01 10:05` in UTC: the stores write UTC and operators compare across machines. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

export function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
}

/** "archives in 2 phases" / "archives at the next phase" / "deleted in 1 phase". */
export function expiryText(expiry: { action: 'archived' | 'deleted'; phasesLeft: number } | null | undefined): string {
  if (!expiry) return '—';
  const verb = expiry.action === 'archived' ? 'archives' : 'deleted';
  if (expiry.phasesLeft <= 0) return `${verb} at the next sweep (overdue)`;
  return `${verb} in ${expiry.phasesLeft} phase${expiry.phasesLeft === 1 ? '' : 's'}`;
}
