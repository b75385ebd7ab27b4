import { ConsoleError, httpCallPath, httpSubscribePath, type ConsoleApi, type Envelope } from '../../../shared/contract';
import { SESSION_HEADER } from './browser-session';
import { createSseFramer } from './sse-frames';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

async function signedOutMessage(response: Response): Promise<string> {
  try {
    return ((await response.json()) as { error: { message: string } }).error.message;
  } catch {
    return 'This tab is no longer signed in to the console; open a new launch URL.';
  }
}

/**
 * The browser host's adapter: calls are POSTs, subscriptions are Server-Sent Events read with
 * fetch (EventSource cannot send the session header). A stream the host closes (it drops readers
 * that fall behind) is opened again, and `onResync` tells the subscriber to refetch what it missed.
 */
/** `base` is empty in the page (same origin); tests under Node pass the host's origin. */
export function createHttpApi(secret: string, onSignedOut: (message: string) => void, base = ''): ConsoleApi {
  const headers = { [SESSION_HEADER]: secret };
  return {
    async call(name, input) {
      let response: Response;
      try {
        response = await fetch(base + httpCallPath(name), {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch (error) {
        throw new ConsoleError('unavailable', `The console host did not answer: ${(error as Error).message}`);
      }
      if (response.status === 401) {
        const message = await signedOutMessage(response);
        onSignedOut(message);
        throw new ConsoleError('forbidden', message);
      }
      let envelope: Envelope<never>;
      try {
        envelope = (await response.json()) as Envelope<never>;
      } catch (error) {
        // A proxy's error page, a connection cut mid-answer: the host did not answer this call.
        throw new ConsoleError('unavailable', `The console host did not answer (HTTP ${response.status}, ${(error as Error).message}).`);
      }
      if (!envelope.ok) throw ConsoleError.fromShape(envelope.error);
      return envelope.value;
    },
    subscribe(name, input, onEvent, onResync) {
      const url = `${base}${httpSubscribePath(name)}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`;
      let stopped = false;
      let attempts = 0;
      let failures = 0;
      let controller: AbortController | null = null;
      let retry: ReturnType<typeof setTimeout> | undefined;

      const read = async () => {
        controller = new AbortController();
        attempts++;
        try {
          const response = await fetch(url, { headers, signal: controller.signal, credentials: 'same-origin' });
          if (response.status === 401) {
            stopped = true;
            return onSignedOut(await signedOutMessage(response));
          }
          if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
          const frame = createSseFramer((f) => {
            if (f.event === 'error') {
              stopped = true;
              console.error(`[${name}]`, f.data);
            } else if (f.data !== null) onEvent(JSON.parse(f.data));
            else if (f.comments.includes('subscribed')) {
              failures = 0;
              // Any attempt after the first may have missed events: the subscriber refetches.
              if (attempts > 1) onResync?.();
            }
          });
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            frame(value);
          }
        } catch (error) {
          if (!stopped) console.warn(`[${name}] stream interrupted, resubscribing:`, (error as Error).message);
        }
        if (stopped) return;
        retry = setTimeout(read, Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures++));
      };
      void read();
      return () => {
        stopped = true;
        clearTimeout(retry);
        controller?.abort();
      };
    },
  };
}
