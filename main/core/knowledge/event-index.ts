import { instant } from '../rules/counters';
import { str, strList } from '../rules/entry-fields';
import type { EventRef, SourceEvent } from './model-types';

/** Knowledge events and legacy application-log lines by the entry ids they name, newest first per id. */
export class EventIndex {
  private readonly byId = new Map<string, EventRef[]>();

  private add(key: string, ref: EventRef): void {
    const list = this.byId.get(key);
    if (list) list.push(ref);
    else this.byId.set(key, [ref]);
  }

  private refOf(event: SourceEvent, kind: string): EventRef {
    return {
      kind,
      at: str(event.value.timestamp) ?? null,
      traceId: str(event.value.trace_id) ?? null,
      sessionId: str(event.value.session_id) ?? str(event.value.sessionId) ?? null,
      phase: str(event.value.phase) ?? null,
      agent: str(event.value.agent) ?? str(event.value.targetAgent) ?? null,
      reason: str(event.value.reason) ?? null,
      source: str(event.value.source) ?? null,
      storeKey: event.storeKey,
      file: event.file,
      line: event.line,
    };
  }

  /** A `knowledge-events.jsonl` line: a retrieval names every result, other events their target. */
  addKnowledgeEvent(event: SourceEvent): void {
    const kind = str(event.value.type) ?? 'unknown';
    if (kind === 'retrieved') for (const id of strList(event.value.result_ids)) this.add(id, this.refOf(event, kind));
    const target = str(event.value.knowledge_id) ?? str(event.value.entry_id);
    if (target) this.add(target, this.refOf(event, kind));
  }

  /** A legacy `knowledge-application.jsonl` line. */
  addLegacyLine(event: SourceEvent): void {
    const target = str(event.value.knowledgeId);
    if (target) this.add(target, this.refOf(event, `legacy:${str(event.value.result) ?? 'unknown'}`));
  }

  finish(): Map<string, EventRef[]> {
    for (const list of this.byId.values()) list.sort((a, b) => (instant(b.at) || 0) - (instant(a.at) || 0));
    return this.byId;
  }
}
