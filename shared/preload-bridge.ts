import type { ConsoleErrorShape, Envelope } from './contract/define';

/** The shape `window.swarm` has in the Electron host: one entry per contract operation. */
export interface PreloadBridge {
  calls: Record<string, (input: unknown) => Promise<Envelope<unknown>>>;
  subscriptions: Record<string, (input: unknown, onEvent: (event: unknown) => void, onError: (error: ConsoleErrorShape | unknown) => void) => () => void>;
}
