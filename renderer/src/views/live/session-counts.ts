import type { ServerInfo, SessionInfo } from '../../../../shared/contract/live';

/**
 * A server's session count split the way the Sessions list shows it: the list holds only the
 * sessions running in the open project's folder, so the rest of `sessionCount` runs elsewhere.
 * One split for the Servers and Sessions panels, so their numbers always agree.
 */
export function sessionSplit(server: Pick<ServerInfo, 'id' | 'sessionCount'>, sessions: readonly SessionInfo[]): { here: number; elsewhere: number } {
  const here = sessions.filter((s) => s.serverId === server.id && !s.otherProject).length;
  return { here, elsewhere: Math.max(0, server.sessionCount - here) };
}

/** Sessions in other projects over every server. */
export function sessionsElsewhere(servers: readonly ServerInfo[], sessions: readonly SessionInfo[]): number {
  return servers.reduce((sum, server) => sum + sessionSplit(server, sessions).elsewhere, 0);
}
