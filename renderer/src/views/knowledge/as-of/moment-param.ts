import { Moment } from '../../../../../shared/contract/history';

/**
 * The Knowledge view's "as of" moment lives in the URL (`#/knowledge?asOf=phase:4`), like its
 * filters, so a historical view can be shared and survives a reload. No `asOf` (or `asOf=now`)
 * is the live table.
 */
export const AS_OF_PARAM = 'asOf';

export interface MomentParam {
  /** The moment to show, or null for live. */
  moment: string | null;
  /** The param as given when it is not a moment (the view says so and shows live). */
  invalid: string | null;
}

export function momentFromParams(params: Readonly<Record<string, string>>): MomentParam {
  const raw = params[AS_OF_PARAM]?.trim();
  if (!raw || raw === 'now') return { moment: null, invalid: null };
  return Moment.safeParse(raw).success ? { moment: raw, invalid: null } : { moment: null, invalid: raw.slice(0, 80) };
}

/** The param change that shows `moment` (null or `now`: back to live). */
export function momentParam(moment: string | null): Record<string, string | null> {
  return { [AS_OF_PARAM]: moment === null || moment === 'now' ? null : moment };
}
