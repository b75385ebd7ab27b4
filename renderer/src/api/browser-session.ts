/** The browser host's session header; the session secret lives only in this tab's sessionStorage. */
export const SESSION_HEADER = 'x-console-session';
const STORAGE_KEY = 'swarm-console-session';

type SessionOutcome = { ok: true; secret: string } | { ok: false; message: string };

async function exchange(body: { token?: string }): Promise<{ ok: true; value: { session: string } } | { ok: false; error: { message: string } }> {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  return response.json();
}

/**
 * Signs this tab in. Arriving with `?token=` (the launch URL), the page spends the token once
 * for a session secret and removes it from the address bar and this history entry; a reload
 * finds the secret in sessionStorage. Without either, the host says what to do.
 */
export async function establishSession(): Promise<SessionOutcome> {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  const stored = sessionStorage.getItem(STORAGE_KEY);
  try {
    if (token !== null) {
      url.searchParams.delete('token');
      history.replaceState(history.state, '', url.pathname + url.search + url.hash);
      const result = await exchange({ token });
      if (result.ok) {
        sessionStorage.setItem(STORAGE_KEY, result.value.session);
        return { ok: true, secret: result.value.session };
      }
      return stored ? { ok: true, secret: stored } : { ok: false, message: result.error.message };
    }
    if (stored) return { ok: true, secret: stored };
    const result = await exchange({});
    return { ok: false, message: result.ok ? 'The console host answered oddly; open the launch URL again.' : result.error.message };
  } catch (error) {
    return { ok: false, message: `The console host did not answer: ${(error as Error).message}` };
  }
}

/** A session the host no longer knows (it restarted, or this tab was copied elsewhere). */
export function forgetSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
