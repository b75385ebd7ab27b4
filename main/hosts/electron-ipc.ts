import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { contract, ipcChannel, IPC_EVENT_CHANNEL, IPC_UNSUBSCRIBE_CHANNEL, opNames } from '../../shared/contract';
import type { Dispatcher } from '../core/rpc/dispatcher';

const SUBSCRIPTION_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * The Electron host: one `ipcMain.handle` per contract operation, nothing generic. Every
 * handler first checks that the message comes from the app's own main frame, then hands the
 * raw input to the dispatcher, which validates it against the contract.
 */
export function registerIpcHost(ipcMain: IpcMain, dispatcher: Dispatcher, isTrustedFrame: (frame: WebFrameMain | null) => boolean): () => void {
  const subscriptions = new Map<string, () => void>();
  const keyOf = (sender: WebContents, id: string) => `${sender.id}:${id}`;
  const forbidden = { ok: false, error: { code: 'forbidden', message: 'IPC sender is not the console window' } } as const;
  const trackedSenders = new WeakSet<WebContents>();

  const stopAllFor = (sender: WebContents) => {
    for (const [key, stop] of subscriptions) {
      if (key.startsWith(`${sender.id}:`)) {
        stop();
        subscriptions.delete(key);
      }
    }
  };

  for (const name of opNames) {
    const channel = ipcChannel(name);
    if (contract[name].kind !== 'subscription') {
      ipcMain.handle(channel, (event: IpcMainInvokeEvent, input: unknown) => (isTrustedFrame(event.senderFrame) ? dispatcher.call(name, input) : forbidden));
      continue;
    }
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, request: unknown) => {
      if (!isTrustedFrame(event.senderFrame)) return forbidden;
      const { subscriptionId, input } = (request ?? {}) as { subscriptionId?: unknown; input?: unknown };
      if (typeof subscriptionId !== 'string' || !SUBSCRIPTION_ID.test(subscriptionId)) {
        return { ok: false, error: { code: 'invalid_input', message: 'subscriptionId must be 8-64 url-safe characters' } };
      }
      const sender = event.sender;
      const result = dispatcher.subscribe(name, input, (payload) => {
        if (!sender.isDestroyed()) sender.send(IPC_EVENT_CHANNEL, { subscriptionId, event: payload });
      });
      if (!result.ok) return result;
      subscriptions.get(keyOf(sender, subscriptionId))?.();
      subscriptions.set(keyOf(sender, subscriptionId), result.value);
      if (!trackedSenders.has(sender)) {
        trackedSenders.add(sender);
        sender.once('destroyed', () => stopAllFor(sender));
      }
      return { ok: true, value: null };
    });
  }

  ipcMain.handle(IPC_UNSUBSCRIBE_CHANNEL, (event: IpcMainInvokeEvent, subscriptionId: unknown) => {
    if (!isTrustedFrame(event.senderFrame) || typeof subscriptionId !== 'string') return forbidden;
    const key = keyOf(event.sender, subscriptionId);
    subscriptions.get(key)?.();
    subscriptions.delete(key);
    return { ok: true, value: null };
  });

  return () => {
    for (const name of opNames) ipcMain.removeHandler(ipcChannel(name));
    ipcMain.removeHandler(IPC_UNSUBSCRIBE_CHANNEL);
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };
}
