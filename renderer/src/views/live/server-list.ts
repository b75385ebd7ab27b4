import type { ServerInfo } from '../../../../shared/contract/live';

/**
 * Server states reach the view by two roads — the answer to a call (`live.connect`,
 * `live.servers`) and the pushed `live.events` stream — and the two can arrive in either order.
 * Keep whichever state began last, so a slow answer never rolls back a newer pushed state.
 */
export function upsertServer(list: readonly ServerInfo[], incoming: ServerInfo): ServerInfo[] {
  const index = list.findIndex((server) => server.id === incoming.id);
  if (index < 0) return [...list, incoming];
  const current = list[index] as ServerInfo;
  if (incoming.state.since < current.state.since) return list as ServerInfo[];
  return list.map((server, i) => (i === index ? incoming : server));
}

/** Applies a fetched list: servers it lacks are gone, the rest merge by recency. */
export function mergeServerList(current: readonly ServerInfo[], fetched: readonly ServerInfo[]): ServerInfo[] {
  return fetched.map((server) => {
    const known = current.find((s) => s.id === server.id);
    return known && known.state.since > server.state.since ? known : server;
  });
}
