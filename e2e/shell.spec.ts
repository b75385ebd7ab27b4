import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';

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
  test('sees the shell on the demo workspace and moves between the six areas', async ({ consolePage: page, consoleHost }) => {
    await expect(page).toHaveURL(`${consoleHost.origin}/`);
    await expect(page.getByTestId('status-project')).toContainText(path.join(consoleHost.userDataDir, 'demo'));
    await expect(page.getByTestId('status-hive')).toContainText(path.join(consoleHost.userDataDir, 'demo'));
    await expect(page.getByTestId('current-project')).toContainText('(demo)');

    const nav = page.getByRole('navigation', { name: 'Areas' });
    for (const area of ['Knowledge', 'Directives', 'Receipts', 'Skills', 'Hive quarantine', 'Live']) {
      await nav.getByRole('link', { name: area }).click();
      await expect(page.getByTestId('area-title')).toHaveText(area);
    }
    await expect(page).toHaveURL(/#\/live$/);

    await page.keyboard.press('Alt+4');
    await expect(page.getByTestId('area-title')).toHaveText('Skills');
    await expect(page.getByTestId('review-queue')).toBeVisible();

    await page.goBack();
    await expect(page.getByTestId('area-title')).toHaveText('Live');
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
    await expect(page.getByTestId('current-project')).toContainText('billing-api (demo)');

    // The second demo project is a linked worktree: its knowledge lives in the hive's link store.
    await page.getByRole('button', { name: /Project/ }).click();
    await dialog.getByRole('button', { name: 'Demo: payments-worker' }).click();
    await expect(page.getByTestId('status-bar')).toContainText('Link payments-cohort');
  });
});

test.describe('the browser host refuses what is not the operator', () => {
  test('a request without the token or cookie is refused', async ({ consoleHost }) => {
    const page = await rawRequest(`${consoleHost.origin}/`);
    expect(page.status).toBe(401);
    const call = await rawRequest(`${consoleHost.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { origin: consoleHost.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(call.status).toBe(401);
    expect((await rawRequest(`${consoleHost.origin}/?token=not-the-token`)).status).toBe(401);
  });

  test('the token is exchanged once for a strict HttpOnly cookie and a clean URL', async ({ consoleHost }) => {
    const exchange = await rawRequest(consoleHost.launchUrl);
    expect(exchange.status).toBe(303);
    expect(exchange.headers.location).toBe('/');
    const cookie = String(exchange.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = cookie.split(';')[0] as string;

    const ok = await rawRequest(`${consoleHost.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { cookie: session, origin: consoleHost.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { project: { isDemo: true } } });

    const foreignOrigin = await rawRequest(`${consoleHost.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { cookie: session, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreignOrigin.status).toBe(403);

    const foreignHost = await rawRequest(`${consoleHost.origin}/`, { headers: { cookie: session, host: 'evil.example' } });
    expect(foreignHost.status).toBe(421);
    const rebound = await rawRequest(`${consoleHost.origin}/`, { headers: { cookie: session, host: `localhost:${new URL(consoleHost.origin).port}` } });
    expect(rebound.status).toBe(421);

    const invalid = await rawRequest(`${consoleHost.origin}/api/call/workspace.open`, {
      method: 'POST',
      headers: { cookie: session, origin: consoleHost.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 42 }),
    });
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('project') } });
  });
});
