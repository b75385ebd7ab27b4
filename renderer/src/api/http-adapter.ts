import { ConsoleError, httpCallPath, httpSubscribePath, type ConsoleApi, type Envelope } from '../../../shared/contract';

/** The browser host's adapter: calls are POSTs, subscriptions are Server-Sent Events. */
export function createHttpApi(): ConsoleApi {
  return {
    async call(name, input) {
      let response: Response;
      try {
        response = await fetch(httpCallPath(name), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch (error) {
        throw new ConsoleError('unavailable', `The console host did not answer: ${(error as Error).message}`);
      }
      if (response.status === 401) throw new ConsoleError('forbidden', 'Session expired: open the URL printed by `swarm-console serve` again.');
      const envelope = (await response.json()) as Envelope<never>;
      if (!envelope.ok) throw ConsoleError.fromShape(envelope.error);
      return envelope.value;
    },
    subscribe(name, input, onEvent) {
      const source = new EventSource(`${httpSubscribePath(name)}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`);
      source.onmessage = (message) => onEvent(JSON.parse(message.data));
      return () => source.close();
    },
  };
}
