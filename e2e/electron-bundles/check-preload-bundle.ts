import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { webcrypto } from 'node:crypto';
import { contract, ipcChannel, IPC_EVENT_CHANNEL, IPC_UNSUBSCRIBE_CHANNEL, opNames, type OpName } from '../../shared/contract';

/** Where the preload's `ipcRenderer.invoke` lands: the main bundle's handler, or a recorder. */
type InvokeMain = (channel: string, ...args: unknown[]) => Promise<unknown>;
type Listener = (event: unknown, ...args: unknown[]) => void;

interface LoadedPreload {
  /** Every `contextBridge.exposeInMainWorld` call, in order. */
  exposed: { key: string; api: unknown }[];
  /** Every module the preload asked `require` for. */
  required: string[];
  /** Every channel the preload listens on. */
  listenedChannels: string[];
  /** Every `ipcRenderer.invoke`, in order. */
  invoked: { channel: string; args: unknown[] }[];
  /** Delivers a message from main (`webContents.send`) to the preload's listeners. */
  deliver(channel: string, ...args: unknown[]): void;
  ipcRenderer: object;
}

/**
 * Runs `<outDir>/preload/index.cjs` as a sandboxed preload runs: in its own context, with a
 * `require` that knows only `electron`, whose `contextBridge` and `ipcRenderer` are stand-ins.
 */
function loadPreloadBundle(outDir: string, invokeMain: InvokeMain): LoadedPreload {
  const code = fs.readFileSync(path.join(outDir, 'preload', 'index.cjs'), 'utf8');
  const listeners = new Map<string, Listener[]>();
  const loaded: LoadedPreload = {
    exposed: [],
    required: [],
    listenedChannels: [],
    invoked: [],
    deliver: (channel, ...args) => {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: ipcRenderer }, ...args);
    },
    ipcRenderer: {},
  };
  const ipcRenderer = {
    invoke(channel: string, ...args: unknown[]) {
      loaded.invoked.push({ channel, args });
      return invokeMain(channel, ...args);
    },
    on(channel: string, listener: Listener) {
      loaded.listenedChannels.push(channel);
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return ipcRenderer;
    },
    send(channel: string) {
      throw new Error(`the preload used ipcRenderer.send("${channel}"); the console only invokes`);
    },
    sendSync(channel: string) {
      throw new Error(`the preload used ipcRenderer.sendSync("${channel}")`);
    },
  };
  loaded.ipcRenderer = ipcRenderer;
  const contextBridge = { exposeInMainWorld: (key: string, api: unknown) => void loaded.exposed.push({ key, api }) };
  const sandboxedRequire = (id: string) => {
    loaded.required.push(id);
    if (id === 'electron') return { contextBridge, ipcRenderer };
    throw new Error(`Cannot find module '${id}' (a sandboxed preload can require only electron)`);
  };
  const module = { exports: {} };
  const context = vm.createContext({ console, crypto: webcrypto, setTimeout, clearTimeout, queueMicrotask });
  const run = vm.compileFunction(code, ['require', 'module', 'exports'], { parsingContext: context, filename: 'preload/index.cjs' });
  run(sandboxedRequire, module, module.exports);
  return loaded;
}

const callNames = opNames.filter((name) => contract[name].kind !== 'subscription').sort();
const subscriptionNames = opNames.filter((name) => contract[name].kind === 'subscription').sort();

/** Every value reachable from `root` (own properties, including non-enumerable ones, and prototypes). */
function reachable(root: unknown): unknown[] {
  const seen = new Set<unknown>();
  const queue = [root];
  while (queue.length) {
    const value = queue.shift();
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      queue.push(descriptor?.value, descriptor?.get, descriptor?.set);
    }
  }
  return [...seen];
}

/**
 * Loads the built preload against `invokeMain` and lists every way it departs from "exactly the
 * contract's operations on the channels main registered". `mainChannels` is what the main bundle
 * registered with `ipcMain.handle` in the same run. An empty list is a pass.
 */
export async function checkPreloadBundle(outDir: string, mainChannels: string[], invokeMain: InvokeMain): Promise<{ problems: string[]; preload: LoadedPreload | null }> {
  const problems: string[] = [];
  // While every function is probed for its channel, nothing reaches main (a probe of a command
  // must not run it); afterwards the preload talks to `invokeMain` for real.
  let probing = true;
  const routed: InvokeMain = (channel, ...args) => (probing ? Promise.resolve({ ok: false, error: { code: 'probe', message: 'not sent' } }) : invokeMain(channel, ...args));
  let preload: LoadedPreload;
  try {
    preload = loadPreloadBundle(outDir, routed);
  } catch (error) {
    // Errors thrown inside the vm context come from another realm: not `instanceof Error` here.
    const message = (error as { message?: unknown } | null)?.message;
    return { problems: [`the preload bundle does not run sandboxed: ${typeof message === 'string' ? message : String(error)}`], preload: null };
  }
  const unexpectedModules = preload.required.filter((id) => id !== 'electron');
  if (unexpectedModules.length) problems.push(`the preload required ${unexpectedModules.join(', ')}`);
  if (preload.exposed.length !== 1 || preload.exposed[0]?.key !== 'swarm') problems.push(`the preload exposed ${JSON.stringify(preload.exposed.map((e) => e.key))}, expected ["swarm"] once`);
  const api = preload.exposed[0]?.api as { calls?: Record<string, unknown>; subscriptions?: Record<string, unknown> } | undefined;
  if (!api) return { problems, preload };

  const topKeys = Reflect.ownKeys(api).map(String).sort();
  if (JSON.stringify(topKeys) !== JSON.stringify(['calls', 'subscriptions'])) problems.push(`window.swarm has ${JSON.stringify(topKeys)}, expected ["calls","subscriptions"]`);
  const sameKeys = (what: string, actual: object | undefined, wanted: string[]) => {
    const keys = actual ? Reflect.ownKeys(actual).map(String).sort() : [];
    const missing = wanted.filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !wanted.includes(k));
    if (missing.length) problems.push(`window.swarm.${what} lacks ${missing.join(', ')}`);
    if (extra.length) problems.push(`window.swarm.${what} has ${extra.join(', ')}, which the contract does not name`);
    for (const key of keys) if (typeof (actual as Record<string, unknown>)[key] !== 'function') problems.push(`window.swarm.${what}.${key} is not a function`);
  };
  sameKeys('calls', api.calls, callNames);
  sameKeys('subscriptions', api.subscriptions, subscriptionNames);

  // Nothing reachable from the exposed object is Electron's: no ipcRenderer, none of its methods.
  const electronValues = new Set<unknown>([preload.ipcRenderer, ...Object.values(preload.ipcRenderer)]);
  if (reachable(api).some((value) => electronValues.has(value))) problems.push('window.swarm leaks ipcRenderer or one of its methods');
  if (preload.listenedChannels.some((c) => c !== IPC_EVENT_CHANNEL)) problems.push(`the preload listens on ${preload.listenedChannels.join(', ')}`);

  // Each function uses its own operation's channel, and main registered that channel.
  for (const name of callNames) {
    const call = api.calls?.[name];
    if (typeof call !== 'function') continue;
    const before = preload.invoked.length;
    await (call as (input: unknown) => Promise<unknown>)({ probe: name });
    const used = preload.invoked.slice(before);
    checkChannel(problems, name, used, ipcChannel(name), mainChannels);
  }
  for (const name of subscriptionNames) {
    const subscribe = api.subscriptions?.[name];
    if (typeof subscribe !== 'function') continue;
    const before = preload.invoked.length;
    const stop = (subscribe as (input: unknown, onEvent: () => void, onError: () => void) => () => void)({}, () => {}, () => {});
    if (typeof stop !== 'function') problems.push(`window.swarm.subscriptions.${name} returns no unsubscribe function`);
    else stop();
    await new Promise((resolve) => setImmediate(resolve));
    const used = preload.invoked.slice(before);
    checkChannel(problems, name, used.slice(0, 1), ipcChannel(name), mainChannels);
    const subscriptionId = (used[0]?.args[0] as { subscriptionId?: unknown } | undefined)?.subscriptionId;
    if (typeof subscriptionId !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(subscriptionId)) problems.push(`${name} subscribed without a valid subscription id`);
    const unsubscribe = used[1];
    if (!unsubscribe || unsubscribe.channel !== IPC_UNSUBSCRIBE_CHANNEL || unsubscribe.args[0] !== subscriptionId) problems.push(`stopping ${name} did not unsubscribe its id on ${IPC_UNSUBSCRIBE_CHANNEL}`);
    else if (!mainChannels.includes(IPC_UNSUBSCRIBE_CHANNEL)) problems.push(`main registered no handler for ${IPC_UNSUBSCRIBE_CHANNEL}`);
  }
  probing = false;
  return { problems, preload };
}

function checkChannel(problems: string[], name: OpName, used: { channel: string }[], wanted: string, mainChannels: string[]) {
  const channels = used.map((u) => u.channel);
  if (channels.length !== 1 || channels[0] !== wanted) problems.push(`${name} invoked ${JSON.stringify(channels)}, expected ["${wanted}"]`);
  for (const channel of channels) if (!mainChannels.includes(channel)) problems.push(`${name} invoked ${channel}, which the main bundle did not register`);
}
