/** The demo's default time anchor: the day after the plugin snapshot docs/plugin-formats.md describes (2026-07-02 12:00 UTC). */
export const DEFAULT_DEMO_NOW = Date.UTC(2026, 6, 2, 12, 0, 0);

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** ISO-8601 UTC with milliseconds, the plugin's timestamp form. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** `YYYY-MM-DD` in UTC (quota files, dayKey). */
export const utcDay = (ms: number): string => iso(ms).slice(0, 10);

/** Skill-improver proposal file name: the ISO time with `:` and `.` replaced by `-`. */
export const fileTimestamp = (ms: number): string => iso(ms).replace(/[:.]/g, '-');
