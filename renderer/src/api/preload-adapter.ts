import { ConsoleError, type ConsoleApi, type ConsoleErrorShape } from '../../../shared/contract';
import type { PreloadBridge } from '../../../shared/preload-bridge';

/** The Electron adapter over the `window.swarm` object the preload exposes. */
export function createPreloadApi(bridge: PreloadBridge): ConsoleApi {
  return {
    async call(name, input) {
      const invoke = bridge.calls[name];
      if (!invoke) throw new ConsoleError('unknown_operation', `The desktop bridge does not offer ${name}`);
      const envelope = await invoke(input ?? {});
      if (!envelope.ok) throw ConsoleError.fromShape(envelope.error);
      return envelope.value as never;
    },
    subscribe(name, input, onEvent) {
      const open = bridge.subscriptions[name];
      if (!open) throw new ConsoleError('unknown_operation', `The desktop bridge does not offer ${name}`);
      return open(input ?? {}, onEvent as (event: unknown) => void, (error) => console.error(`[${name}]`, (error as ConsoleErrorShape)?.message ?? error));
    },
  };
}
