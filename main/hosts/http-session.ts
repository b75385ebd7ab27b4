import { constantTimeEqual, randomSecret } from './http-security';

/** What became of a launch token the browser offered. */
export type TokenState = 'valid' | 'used' | 'replaced' | 'unknown';

export interface Session {
  /** Sent by the page in `x-console-session` on every call and subscription; never in a cookie. */
  readonly secret: string;
  /** The HttpOnly cookie value that lets a reload fetch the page itself (not the API). */
  readonly pageKey: string;
}

/**
 * Launch tokens and the sessions they are exchanged for. A launch token works once: the page
 * that arrives with it POSTs it back and receives a fresh session secret, which it keeps in
 * sessionStorage and sends as a header. Browsers never attach a header on their own, so a
 * cookie replayed from another local server opens nothing but the page's static files.
 */
export class SessionBook {
  private readonly tokens = new Map<string, Exclude<TokenState, 'unknown' | 'valid'> | 'unused'>();
  private readonly sessions = new Map<string, Session>();
  private readonly pageKeys = new Set<string>();

  /** Mints a launch token; older unused ones stop working, so only the newest printed URL opens. */
  issueToken(): string {
    for (const [token, state] of this.tokens) if (state === 'unused') this.tokens.set(token, 'replaced');
    const token = randomSecret();
    this.tokens.set(token, 'unused');
    return token;
  }

  tokenState(offered: string): TokenState {
    for (const [token, state] of this.tokens) {
      if (constantTimeEqual(offered, token)) return state === 'unused' ? 'valid' : state;
    }
    return 'unknown';
  }

  /** Spends the token and opens a session, or says why it cannot. */
  exchange(offered: string): { ok: true; session: Session } | { ok: false; state: Exclude<TokenState, 'valid'> } {
    const state = this.tokenState(offered);
    if (state !== 'valid') return { ok: false, state };
    this.tokens.set(offered, 'used');
    const session: Session = { secret: randomSecret(), pageKey: randomSecret() };
    this.sessions.set(session.secret, session);
    this.pageKeys.add(session.pageKey);
    return { ok: true, session };
  }

  /** The session a request's header names, if any (compared in constant time). */
  find(secret: string | undefined): Session | null {
    if (!secret) return null;
    for (const [known, session] of this.sessions) if (constantTimeEqual(secret, known)) return session;
    return null;
  }

  hasPageKey(value: string | null): boolean {
    if (!value) return false;
    for (const key of this.pageKeys) if (constantTimeEqual(value, key)) return true;
    return false;
  }
}
