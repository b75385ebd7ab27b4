import type { z } from 'zod';
import type { OpSpec } from './define';
import { workspaceOps } from './workspace';
import { storeOps } from './stores';
import { knowledgeOps } from './knowledge';
import { receiptOps } from './receipts';
import { liveOps } from './live';
import { skillDecisionOps, skillOps } from './skills';
import { commandOps, swarmCommandOps } from './commands';
import { historyOps } from './history';
import { uiOps } from './ui';

export * from './define';

/**
 * The one contract between the renderer and the main process. Each area owns a module;
 * this record merges them. Channel names (IPC and HTTP) derive from these keys.
 */
export const contract = {
  ...workspaceOps,
  ...storeOps,
  ...knowledgeOps,
  ...receiptOps,
  ...liveOps,
  ...skillOps,
  ...skillDecisionOps,
  ...commandOps,
  ...swarmCommandOps,
  ...historyOps,
  ...uiOps,
} as const satisfies Record<string, OpSpec>;

export type Contract = typeof contract;
export type OpName = keyof Contract;
export type CallName = { [K in OpName]: Contract[K]['kind'] extends 'subscription' ? never : K }[OpName];
export type SubscriptionName = { [K in OpName]: Contract[K]['kind'] extends 'subscription' ? K : never }[OpName];

/** What a caller passes (before defaults are applied). */
export type Input<K extends OpName> = z.input<Contract[K]['input']>;
/** What an implementation receives (after validation and defaults). */
export type ParsedInput<K extends OpName> = z.output<Contract[K]['input']>;
export type Output<K extends OpName> = z.output<Contract[K]['output']>;

export const opNames = Object.keys(contract) as OpName[];
export const isOpName = (name: unknown): name is OpName => typeof name === 'string' && Object.hasOwn(contract, name);

/** IPC channel for a call or subscription; the preload allows nothing else. */
export const ipcChannel = (name: OpName): string => `swarm:${name}`;
export const IPC_EVENT_CHANNEL = 'swarm:event';
export const IPC_UNSUBSCRIBE_CHANNEL = 'swarm:unsubscribe';
/** HTTP routes of the browser host. */
export const httpCallPath = (name: CallName): string => `/api/call/${name}`;
export const httpSubscribePath = (name: SubscriptionName): string => `/api/subscribe/${name}`;

/**
 * The port the renderer talks to. Two adapters implement it (preload and HTTP); views never
 * know which one they have.
 */
export interface ConsoleApi {
  call<K extends CallName>(name: K, input: Input<K>): Promise<Output<K>>;
  /**
   * `onResync` runs when the stream was interrupted and opened again (the browser host drops
   * readers that fall behind): events may have been missed, so the subscriber refetches.
   */
  subscribe<K extends SubscriptionName>(name: K, input: Input<K>, onEvent: (event: Output<K>) => void, onResync?: () => void): () => void;
}
