import fs from 'node:fs';
import { SECURITY_HEADERS } from './http-security';
import { contentTypeOf, resolveStaticFile } from './static-files';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://console`;

/**
 * True for a URL of the console's own pages. Deliberately not `new URL(url).origin === APP_ORIGIN`:
 * Node's URL (the one Electron's main process uses) gives every non-special scheme the opaque
 * origin "null", whatever Chromium registered, so that comparison never holds.
 */
export function isConsoleUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === 'console' && parsed.username === '' && parsed.password === '' && parsed.port === '';
}

/** Serves the built renderer for the `app://console/` scheme with the same CSP as the browser host. */
export function serveRendererRequest(rendererDir: string, requestUrl: string): Response {
  const url = new URL(requestUrl);
  if (url.host !== 'console') return new Response('unknown host', { status: 404 });
  const file = resolveStaticFile(rendererDir, url.pathname);
  if (!file) return new Response('not found', { status: 404 });
  return new Response(fs.readFileSync(file), { headers: { ...SECURITY_HEADERS, 'content-type': contentTypeOf(file) } });
}
