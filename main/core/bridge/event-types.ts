/**
 * Event types OpenCode 1.18.33 publishes (the `Event` union of its OpenAPI document, plus the
 * heartbeat and the `sync` wrapper seen on /global/event). A type outside this list is counted as
 * a warning and skipped: the bridge keeps working when a newer server adds events.
 */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set([
  'sync', 'server.heartbeat', 'server.connected', 'global.disposed', 'server.instance.disposed',
  'models-dev.refreshed', 'integration.updated', 'integration.connection.updated', 'catalog.updated',
  'session.created', 'session.updated', 'session.deleted', 'message.updated', 'message.removed',
  'message.part.updated', 'message.part.removed', 'message.part.delta', 'session.diff', 'session.error',
  'session.next.agent.switched', 'session.next.model.switched', 'session.next.moved', 'session.next.prompted',
  'session.next.prompt.admitted', 'session.next.context.updated', 'session.next.synthetic',
  'session.next.shell.started', 'session.next.shell.ended', 'session.next.step.started', 'session.next.step.ended',
  'session.next.step.failed', 'session.next.text.started', 'session.next.text.delta', 'session.next.text.ended',
  'session.next.reasoning.started', 'session.next.reasoning.delta', 'session.next.reasoning.ended',
  'session.next.tool.input.started', 'session.next.tool.input.delta', 'session.next.tool.input.ended',
  'session.next.tool.called', 'session.next.tool.progress', 'session.next.tool.success', 'session.next.tool.failed',
  'session.next.retried', 'session.next.compaction.started', 'session.next.compaction.delta',
  'session.next.compaction.ended', 'session.next.revert.staged', 'session.next.revert.cleared',
  'session.next.revert.committed', 'installation.updated', 'installation.update-available', 'file.edited',
  'reference.updated', 'permission.v2.asked', 'permission.v2.replied', 'plugin.added', 'project.directories.updated',
  'file.watcher.updated', 'pty.created', 'pty.updated', 'pty.exited', 'pty.deleted', 'question.v2.asked',
  'question.v2.replied', 'question.v2.rejected', 'todo.updated', 'lsp.updated', 'permission.asked',
  'permission.replied', 'tui.prompt.append', 'tui.command.execute', 'tui.toast.show', 'tui.session.select',
  'mcp.tools.changed', 'mcp.browser.open.failed', 'command.executed', 'project.updated', 'session.status',
  'session.idle', 'question.asked', 'question.replied', 'question.rejected', 'session.compacted',
  'vcs.branch.updated', 'workspace.ready', 'workspace.failed', 'workspace.status', 'worktree.ready', 'worktree.failed',
]);

/** Stored ("durable") kinds: each arrives twice on /global/event; the bridge keeps only the `sync` copy (it has the seq). */
export const DURABLE_EVENT_TYPES: ReadonlySet<string> = new Set(['session.created', 'session.updated', 'message.updated', 'message.part.updated']);
