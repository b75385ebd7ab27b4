import { createDispatcher, type Dispatcher, type Handlers } from './rpc/dispatcher';
import type { CoreContext, CoreOptions } from './rpc/context';
import { createWorkspaceHandlers } from './rpc/workspace-handlers';
import { createStoreHandlers } from './rpc/store-handlers';
import { createKnowledgeHandlers } from './rpc/knowledge-handlers';
import { createReceiptHandlers } from './rpc/receipt-handlers';
import { createLiveHandlers } from './rpc/live-handlers';
import { createSkillHandlers } from './rpc/skill-handlers';
import { createCommandHandlers } from './rpc/command-handlers';
import { createRevealHandler } from './rpc/reveal-handler';
import { createHistoryHandlers } from './rpc/history-handlers';
import { createUiHandlers } from './rpc/ui-handlers';
import { HumanServices } from './human/runner';
import { WorkspaceManager, type OpenRequest } from './workspace/workspace-manager';

export interface ConsoleCore {
  readonly dispatcher: Dispatcher;
  readonly context: CoreContext;
  /** Tokens, confirmations and the audit log of human-only commands. */
  readonly human: HumanServices;
  dispose(): Promise<void>;
}

/**
 * The headless core: plain Node, no Electron. Both hosts (Electron IPC and the loopback HTTP
 * server) wrap the same dispatcher built here.
 */
export async function createConsoleCore(options: CoreOptions, initial: OpenRequest): Promise<ConsoleCore> {
  const disposers: (() => void | Promise<void>)[] = [];
  const workspaces = new WorkspaceManager(options.userDataDir, options.demo ?? null);
  const context: CoreContext = { options, workspaces, onDispose: (d) => disposers.push(d) };
  const human = new HumanServices({ userDataDir: options.userDataDir, consoleVersion: options.version, ...options.human });
  const handlers: Handlers = {
    ...createWorkspaceHandlers(context),
    ...createStoreHandlers(context),
    ...createKnowledgeHandlers(context),
    ...createReceiptHandlers(context),
    ...createLiveHandlers(context),
    ...createSkillHandlers(context, human),
    ...createCommandHandlers(context, human),
    ...createRevealHandler(context, human),
    ...createHistoryHandlers(context, human),
    ...createUiHandlers(),
  };
  await workspaces.open(initial);
  return {
    dispatcher: createDispatcher(handlers, {
      onHumanRefusal: (name, caller, message) => human.record(caller, { event: 'refusal', op: name, outcome: 'refused', binding: 'caller', message }),
    }),
    context,
    human,
    async dispose() {
      for (const dispose of disposers.reverse()) await dispose();
      await workspaces.close();
    },
  };
}
