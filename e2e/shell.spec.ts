import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startConsole } from './console-host';
import { expect, test, SWITCH_TIMEOUT } from './fixtures';

/** A raw request, so the test controls Host and Origin exactly (fetch would not let it). */
function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const target = new URL(url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: target.port, path: target.pathname + target.search, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

test.describe('an operator opens the console', () => {
  test('sees the shell on the demo workspace and moves between the seven areas', async ({ consolePage: page, consoleHost }) => {
    await expect(page).toHaveURL(`${consoleHost.origin}/`);
    await expect(page.getByTestId('status-project')).toContainText(path.join(consoleHost.userDataDir, 'demo'));
    await expect(page.getByTestId('status-hive')).toContainText(path.join(consoleHost.userDataDir, 'demo'));
    await expect(page.getByTestId('current-project')).toContainText('(demo)');

    const nav = page.getByRole('navigation', { name: 'Areas' });
    for (const area of ['Knowledge', 'Directives', 'Receipts', 'Skills', 'Hive quarantine', 'Live', 'History']) {
      await nav.getByRole('link', { name: area }).click();
      await expect(page.getByTestId('area-title')).toHaveText(area);
    }
    await expect(page).toHaveURL(/#\/history$/);

    await page.keyboard.press('Alt+4');
    await expect(page.getByTestId('area-title')).toHaveText('Skills');
    await expect(page.getByTestId('review-queue')).toBeVisible();

    await page.goBack();
    await expect(page.getByTestId('area-title')).toHaveText('History');
  });

  test('switches to another project folder and is told plainly when one does not exist', async ({ consolePage: page }) => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-project-'));
    fs.mkdirSync(path.join(project, '.swarm'));
    const hive = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hive-'));

    await page.getByRole('button', { name: /Project/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch project' });
    await dialog.getByLabel('Project folder').fill(project);
    await dialog.getByLabel('Hive folder (optional)').fill(hive);
    await dialog.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('status-project')).toHaveText(project);
    await expect(page.getByTestId('status-hive')).toHaveText(hive);

    await page.getByRole('button', { name: /Project/ }).click();
    await dialog.getByLabel('Project folder').fill(path.join(project, 'missing'));
    await dialog.getByRole('button', { name: 'Open' }).click();
    await expect(dialog.getByRole('alert')).toContainText('does not exist');
    await expect(page.getByTestId('status-project')).toHaveText(project);

    await dialog.getByRole('button', { name: 'Demo: billing-api' }).click();
    await expect(page.getByTestId('current-project')).toContainText('billing-api (demo)', { timeout: SWITCH_TIMEOUT });

    // The second demo project is a linked worktree: its knowledge lives in the hive's link store.
    await page.getByRole('button', { name: /Project/ }).click();
    await dialog.getByRole('button', { name: 'Demo: payments-worker' }).click();
    await expect(page.getByTestId('status-bar')).toContainText('Link payments-cohort', { timeout: SWITCH_TIMEOUT });
  });
});

test.describe('the operator signs in once per tab, and the session stays theirs', () => {
  test('signs in through the launch URL; a reload keeps working and the address bar no longer shows the token', async ({ consolePage: page, consoleHost }) => {
    await expect(page).toHaveURL(`${consoleHost.origin}/`);
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Receipts' }).click();
    await page.reload();
    await expect(page.getByTestId('area-title')).toHaveText('Receipts');
    await expect(page.getByTestId('status-project')).toContainText(path.join(consoleHost.userDataDir, 'demo'));
    await expect(page).not.toHaveURL(/token=/);
  });

  test('the launch URL opened again, in another browser profile, is refused with what to do', async ({ consolePage: _signedIn, consoleHost, browser }) => {
    const other = await browser.newContext();
    const page = await other.newPage();
    const response = await page.goto(consoleHost.launchUrl);
    expect(response?.status()).toBe(401);
    await expect(page.locator('body')).toContainText('This launch URL has already been used.');
    await expect(page.locator('body')).toContainText('swarm-console serve');
    await other.close();
  });

  test('a page cookie picked up by another local server gets its thief nothing', async ({ consolePage: page, consoleHost }) => {
    // Cookies ignore ports: when the operator's browser visits any other service on 127.0.0.1, it sends the console's cookie along.
    let stolen = '';
    const otherService = http.createServer((request, response) => {
      stolen = request.headers.cookie ?? '';
      response.end('another local service');
    });
    await new Promise<void>((resolve) => otherService.listen(0, '127.0.0.1', resolve));
    const visit = await page.context().newPage();
    await visit.goto(`http://127.0.0.1:${(otherService.address() as AddressInfo).port}/`);
    otherService.close();
    expect(stolen).toMatch(/swarm_console_page_\d+=/);

    const headers = { cookie: stolen, origin: consoleHost.origin, 'content-type': 'application/json' };
    const call = await rawRequest(`${consoleHost.origin}/api/call/workspace.open`, { method: 'POST', headers, body: JSON.stringify({ project: '/etc' }) });
    expect(call.status).toBe(401);
    const connect = await rawRequest(`${consoleHost.origin}/api/call/live.connect`, { method: 'POST', headers, body: JSON.stringify({ url: 'http://127.0.0.1:9' }) });
    expect(connect.status).toBe(401);
    const stream = await rawRequest(`${consoleHost.origin}/api/subscribe/live.events?input=%7B%7D`, { headers: { cookie: stolen } });
    expect(stream.status).toBe(401);
    const exchange = await rawRequest(`${consoleHost.origin}/api/session`, { method: 'POST', headers, body: '{}' });
    expect(exchange.status).toBe(401);
    // The operator's tab is untouched.
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Directives' }).click();
    await expect(page.getByTestId('area-title')).toHaveText('Directives');
    await expect(page.getByTestId('status-project')).toContainText('demo');
  });

  test('two consoles in one browser both keep working', async ({ consolePage: first, consoleHost }) => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-second-'));
    fs.mkdirSync(path.join(project, '.swarm'));
    const second = await startConsole({ project });
    try {
      const page = await first.context().newPage();
      await page.goto(second.launchUrl);
      await expect(page.getByTestId('status-project')).toHaveText(project);
      await first.reload();
      await expect(first.getByTestId('status-project')).toContainText(path.join(consoleHost.userDataDir, 'demo'));
      await page.reload();
      await expect(page.getByTestId('status-project')).toHaveText(project);
    } finally {
      await second.stop();
    }
  });
});

test('a tab whose console was restarted is told plainly to sign in again', async ({ page }) => {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-restart-'));
  const first = await startConsole({ userDataDir });
  const port = Number(new URL(first.origin).port);
  await page.goto(first.launchUrl);
  await expect(page.getByTestId('status-project')).toBeVisible();
  // The question here is what the tab's next call is told; its live streams, retrying meanwhile, would
  // otherwise race the click to the restarted console.
  await page.route('**/api/subscribe/**', (route) => route.abort());
  await first.stop();
  const second = await startConsole({ userDataDir, port });
  try {
    // The open tab's next call meets a console that never issued its session.
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Receipts' }).click();
    await expect(page.getByTestId('signed-out')).toContainText('This browser tab has no console session.');
    await expect(page.getByTestId('signed-out')).toContainText('swarm-console serve');
    // A reload gets the host's own sign-in page; the new launch URL works in the same tab.
    expect((await page.reload())?.status()).toBe(401);
    await page.goto(second.launchUrl);
    await expect(page.getByTestId('status-project')).toBeVisible();
  } finally {
    await second.stop();
  }
});

test.describe('a console started from a terminal', () => {
  test.use({ consoleOptions: { terminal: true } });

  test('prints a fresh launch URL when Enter is pressed there, and it opens the console in a new profile', async ({ consolePage: _first, consoleHost, browser }) => {
    expect(consoleHost.output()).toContain('Press Enter here for a new one.');
    const fresh = await consoleHost.pressEnter();
    expect(fresh).not.toBe(consoleHost.launchUrl);
    const other = await browser.newContext();
    const page = await other.newPage();
    await page.goto(fresh);
    await expect(page.getByTestId('status-project')).toBeVisible();
    await expect(page).toHaveURL(`${consoleHost.origin}/`);
    await other.close();
  });
});

test.describe('the browser host refuses what is not the operator', () => {
  test('a request without a launch token or session is refused with what to do', async ({ consoleHost }) => {
    const page = await rawRequest(`${consoleHost.origin}/`);
    expect(page.status).toBe(401);
    expect(page.body).toContain('This browser tab has no console session.');
    const call = await rawRequest(`${consoleHost.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { origin: consoleHost.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(call.status).toBe(401);
    const unknown = await rawRequest(`${consoleHost.origin}/?token=not-the-token`);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toContain('not one this console printed');
  });

  test('the token is spent once for a header secret; the API checks Host and Origin and validates input', async ({ consoleHost }) => {
    const token = new URL(consoleHost.launchUrl).searchParams.get('token');
    const exchange = await rawRequest(`${consoleHost.origin}/api/session`, {
      method: 'POST',
      headers: { origin: consoleHost.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(exchange.status).toBe(200);
    const cookie = String(exchange.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const secret = (JSON.parse(exchange.body) as { value: { session: string } }).value.session;
    expect(cookie).not.toContain(secret);
    const session = { 'x-console-session': secret };

    const ok = await rawRequest(`${consoleHost.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { ...session, origin: consoleHost.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { project: { isDemo: true } } });

    const foreignOrigin = await rawRequest(`${consoleHost.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { ...session, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreignOrigin.status).toBe(403);

    const foreignHost = await rawRequest(`${consoleHost.origin}/`, { headers: { ...session, host: 'evil.example' } });
    expect(foreignHost.status).toBe(421);
    const port = new URL(consoleHost.origin).port;
    const rebound = await rawRequest(`${consoleHost.origin}/`, { headers: { ...session, host: `localhost:${port}` } });
    expect(rebound.status).toBe(421);
    expect(rebound.body).toContain(`http://127.0.0.1:${port}/`);

    const invalid = await rawRequest(`${consoleHost.origin}/api/call/workspace.open`, {
      method: 'POST',
      headers: { ...session, origin: consoleHost.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'relative/path' }),
    });
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('absolute path') } });

    const again = await rawRequest(consoleHost.launchUrl);
    expect(again.status).toBe(401);
    expect(again.body).toContain('already been used');
  });
});
