import type { JSX } from 'solid-js';

/** What a browser tab without a console session shows: the host's own words on what to do. */
export function SignedOut(props: { message: string }): JSX.Element {
  return (
    <div class="signed-out" role="alert" data-testid="signed-out">
      <h1>Swarm Knowledge Console — sign-in needed</h1>
      <p>{props.message}</p>
    </div>
  );
}
