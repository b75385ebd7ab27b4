type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Polls until `check` returns a truthy value (which is returned) or the time is up. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
