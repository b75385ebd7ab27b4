import { createSignal, Show } from 'solid-js';
import { render } from 'solid-js/web';
import { App } from './App';
import { connectConsoleApi } from './api/port';
import { SignedOut } from './components/SignedOut';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const mount = root;
const [signedOut, setSignedOut] = createSignal<string | null>(null);

void connectConsoleApi(setSignedOut).then((outcome) => {
  if (!outcome.ok) setSignedOut(outcome.message);
  render(
    () => (
      <Show when={signedOut() === null && outcome.ok && outcome.api} fallback={<SignedOut message={signedOut() ?? ''} />}>
        {(api) => <App api={api()} />}
      </Show>
    ),
    mount,
  );
});
