import type { TokenState } from './http-session';

/** How the person started the console, so the pages name the command they actually ran. */
export interface LaunchHints {
  /** e.g. `npm start` or `swarm-console serve`. */
  command: string;
  /** True when pressing Enter in that terminal prints a new launch URL. */
  interactive: boolean;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function howToGetANewUrl(hints: LaunchHints): string {
  return hints.interactive
    ? `Press Enter in the terminal where \`${hints.command}\` is running: it prints a new launch URL. Each launch URL opens the console once.`
    : `This console was started without a terminal to type in, so it cannot print a new launch URL: stop \`${hints.command}\` and start it again, then open the URL it prints. Each launch URL opens the console once.`;
}

/** Why a browser got no session, and what to do about it: one sentence each. */
export function signInMessage(reason: Exclude<TokenState, 'valid'> | 'none', hints: LaunchHints): string {
  const what = {
    used: 'This launch URL has already been used.',
    replaced: 'This launch URL was replaced by a newer one before it was used.',
    unknown: `This launch URL is not one this console printed (it may be from an earlier run of \`${hints.command}\`).`,
    none: 'This browser tab has no console session.',
  }[reason];
  return `${what} ${howToGetANewUrl(hints)}`;
}

function page(title: string, paragraphs: string[]): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>' + escapeHtml(title) + '</title></head>',
    // No inline styles: the page runs under the same CSP as the console.
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((p) => `<p>${p}</p>`),
    '</body></html>',
  ].join('\n');
}

export function signInPage(reason: Exclude<TokenState, 'valid'> | 'none', hints: LaunchHints): string {
  return page('Swarm Knowledge Console — sign-in needed', [escapeHtml(signInMessage(reason, hints)).replace(/`([^`]+)`/g, '<code>$1</code>')]);
}

/** For a request whose Host is not ours: `localhost` resolves to the same machine, but the console answers only by IP. */
export function wrongHostPage(expectedHost: string): string {
  const address = `http://${expectedHost}/`;
  return page('Swarm Knowledge Console answers only on ' + expectedHost, [
    `The console listens on <code>${escapeHtml(address)}</code> and refuses every other host name, including <code>localhost</code>: ` +
      'a fixed address is how it tells its own pages from a web site that points a name at this machine (DNS rebinding).',
    `Open the launch URL printed in the terminal (it starts with <code>${escapeHtml(address)}</code>), ` +
      `or <a href="${escapeHtml(address)}">${escapeHtml(address)}</a> if this browser tab already signed in.`,
  ]);
}
