import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, isConsoleUrl } from './renderer-protocol';

describe('isConsoleUrl', () => {
  it('accepts the console pages although Node reports an opaque origin for the app scheme', () => {
    expect(new URL(`${APP_ORIGIN}/index.html`).origin).toBe('null');
    expect(isConsoleUrl(`${APP_ORIGIN}/index.html`)).toBe(true);
    expect(isConsoleUrl(`${APP_ORIGIN}/index.html#/knowledge?q=x`)).toBe(true);
    expect(isConsoleUrl(APP_ORIGIN)).toBe(true);
  });

  it('refuses other origins, other hosts of the scheme, credentials, ports and garbage', () => {
    for (const url of ['https://example.com/', 'http://console/index.html', 'app://evil/index.html', 'app://console.evil/x', 'app://user@console/x', 'app://console:8080/x', 'file:///etc/passwd', 'not a url', '']) {
      expect(isConsoleUrl(url), url).toBe(false);
    }
  });
});
