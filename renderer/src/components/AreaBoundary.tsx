import { createSignal, ErrorBoundary, Show, type JSX } from 'solid-js';
import { ConsoleError } from '../../../shared/contract';

/**
 * The root of every area: an error thrown while rendering a view (a framework error such as
 * "Stale read from <Show>", a TypeError) never puts its text on the page. The operator reads a
 * plain sentence (or, for an error the console host reported, its own words) and can start the
 * area again; the error goes to the developer console.
 */
export function AreaBoundary(props: { label: string; children: JSX.Element }): JSX.Element {
  // Remounting from scratch (a new generation) rather than re-running the same broken owner.
  const [generation, setGeneration] = createSignal(0);
  return (
    <Show when={generation() + 1} keyed>
      {(current: number) => (
        <ErrorBoundary
          fallback={(error: unknown) => {
            console.error(`${props.label} area failed`, error);
            return (
              <section class="banner danger" role="alert" data-testid="area-error" data-generation={current}>
                <p>
                  {error instanceof ConsoleError
                    ? `The ${props.label} area could not go on: ${error.message}`
                    : `The ${props.label} area stopped because of an error in the page. The stores were not changed by it; whatever the console wrote before is in the audit log.`}
                </p>
                <button type="button" data-testid="area-reload" onClick={() => setGeneration(generation() + 1)}>
                  Reload this area
                </button>
              </section>
            );
          }}
        >
          {props.children}
        </ErrorBoundary>
      )}
    </Show>
  );
}
