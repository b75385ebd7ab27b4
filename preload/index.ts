/**
 * Exposes exactly the contract's operations to the sandboxed renderer as `window.swarm`:
 * one function per call and per subscription, nothing generic.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { contract, ipcChannel, IPC_EVENT_CHANNEL, IPC_UNSUBSCRIBE_CHANNEL, opNames } from '../shared/contract';
import type { PreloadBridge } from '../shared/preload-bridge';

const listeners = new Map<string, (event: unknown) => void>();
ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, message: { subscriptionId: string; event: unknown }) => listeners.get(message.subscriptionId)?.(message.event));

const newSubscriptionId = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

const bridge: PreloadBridge = { calls: {}, subscriptions: {} };
for (const name of opNames) {
  if (contract[name].kind === 'subscription') {
    bridge.subscriptions[name] = (input, onEvent, onError) => {
      const subscriptionId = newSubscriptionId();
      listeners.set(subscriptionId, onEvent);
      ipcRenderer.invoke(ipcChannel(name), { subscriptionId, input }).then(
        (result: { ok: boolean; error?: unknown }) => {
          if (!result.ok) {
            listeners.delete(subscriptionId);
            onError(result.error);
          }
        },
        (error: unknown) => onError({ code: 'failed', message: String(error) }),
      );
      return () => {
        listeners.delete(subscriptionId);
        void ipcRenderer.invoke(IPC_UNSUBSCRIBE_CHANNEL, subscriptionId);
      };
    };
  } else {
    bridge.calls[name] = (input) => ipcRenderer.invoke(ipcChannel(name), input);
  }
}

contextBridge.exposeInMainWorld('swarm', bridge);
