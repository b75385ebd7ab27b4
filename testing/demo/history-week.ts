import type { ConsoleCore } from '../../main/core/console-core';
import { callOk } from '../stores/core-calls';

/**
 * What the demo weeks' tests ask history through the contract, said once: the ids of one kind of entry as of a
 * moment and now (`active` for a project's own store, `link` for a linked project's), and the changed rows that
 * moved one field.
 */
export async function idsThenAndNow(core: ConsoleCore, moment: string, kind: string): Promise<{ at: number; then: Set<string>; now: Set<string>; asOf: { then: any; now: any } }> {
  const then = await callOk(core, 'history.asOf', { moment, limit: 5000 });
  const now = await callOk(core, 'history.asOf', { moment: 'now', limit: 5000 });
  const ids = (r: any) => new Set<string>(r.entries.filter((e: any) => e.kind === kind).map((e: any) => e.id));
  return { at: Date.parse(then.moment.at), then: ids(then), now: ids(now), asOf: { then, now } };
}

export function rowsChanging(result: any, field: string): any[] {
  return result.rows.filter((r: any) => r.change === 'changed' && r.fields.some((f: any) => f.field === field));
}
