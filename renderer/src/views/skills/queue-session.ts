import { createRoot, createSignal } from 'solid-js';
import { parseQueueSession, type QueueSession } from './queue-state';

const STORAGE_KEY = 'swarm-console-review-queue';

const read = (): QueueSession => {
  try {
    return parseQueueSession(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return parseQueueSession(null);
  }
};

/**
 * The review queue's place for this browser tab: one signal for the page (so leaving the queue for an
 * item and coming back keeps it), mirrored to sessionStorage (so a reload keeps it too). Never shared
 * with other tabs or written anywhere else.
 */
const store = createRoot(() => {
  const [session, setSession] = createSignal<QueueSession>(read());
  const update = (change: (current: QueueSession) => QueueSession) => {
    const next = change(session());
    setSession(next);
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage full or refused: the place is still kept for this page.
    }
  };
  return { session, update };
});

export const queueSession = store.session;
export const updateQueueSession = store.update;

/** A decision made on the item opened from the queue (in Skills & drafts) counts for the queue's progress. */
export const markCurrentDecided = () =>
  updateQueueSession((s) => (s.current === null ? s : { ...s, decided: [...s.decided.filter((k) => k !== s.current), s.current] }));
