import { createResource, Show, type JSX } from 'solid-js';
import type { ConsoleApi } from '../../../../shared/contract';
import { useApi } from '../../api/port';
import { useWorkspace } from '../../state/workspace';

/** One lookup per entry id and workspace: a receipts table names the same entries on many rows. */
const lessons = new Map<string, Promise<string | null>>();

function lessonOf(api: ConsoleApi, id: string, epoch: number): Promise<string | null> {
  const key = `${epoch}\u0000${id}`;
  let found = lessons.get(key);
  if (!found) {
    found = api.call('stores.entry', { id }).then(
      (entry) => {
        const lesson = entry.normalised.lesson ?? entry.raw.lesson;
        return typeof lesson === 'string' ? lesson : null;
      },
      () => null,
    );
    lessons.set(key, found);
  }
  return found;
}

/** The lesson text beside an entry's short id, clipped to one line with the whole text as its tooltip; nothing when the entry is not in this workspace. */
export function LessonText(props: { id: string | null | undefined }): JSX.Element {
  const api = useApi();
  const workspace = useWorkspace();
  const [lesson] = createResource(
    () => (props.id ? { id: props.id, epoch: workspace.epoch() } : false),
    ({ id, epoch }) => lessonOf(api, id, epoch),
  );
  return (
    <Show when={lesson()}>
      {(text) => (
        <span class="lesson-beside" title={text()} data-testid="receipt-lesson">
          {text()}
        </span>
      )}
    </Show>
  );
}
