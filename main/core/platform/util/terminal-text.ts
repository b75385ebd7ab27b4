/**
 * Text from stores and from OpenCode printed to a terminal: C0 controls (ESC, BEL, CR, …), DEL and
 * C1 controls (U+0080–U+009F, e.g. the one-character CSI U+009B) are written as visible escapes
 * (`\x1b`, `\x9b`), so store bytes cannot set the window title, clear the screen or move lines.
 * JSON output needs none of this: JSON.stringify escapes C0 itself, and C1 is escaped there too.
 */
const CONTROLS_BUT_NEWLINE_AND_TAB = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const CONTROLS_BUT_TAB = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;
const C1_AND_DEL = /[\x7f-\x9f]/g;

const escape = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Several lines of text: each `\n` stays (it is structure), every other control is escaped. */
export const terminalText = (text: string): string => text.replace(CONTROLS_BUT_NEWLINE_AND_TAB, escape);

/** One line: a `\n` inside it is escaped too, so a field cannot start a line of its own. */
export const terminalLine = (text: string): string => text.replace(CONTROLS_BUT_TAB, escape);

/** JSON text with C1 controls and DEL escaped as `\u00XX` (JSON.stringify leaves them raw). */
export const terminalJson = (json: string): string => json.replace(C1_AND_DEL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
