import { defineConfig } from '@playwright/test';

/**
 * Three projects. `browser-host` drives Debian's Chromium against the loopback browser host and
 * runs everywhere. `electron` drives the real desktop app and runs only where an Electron
 * binary exists; elsewhere its specs report that they were not run, and why. `electron-bundles`
 * runs the built main and preload bundles under plain Node with a stand-in `electron` module
 * (e2e/electron-bundles/), everywhere, no browser involved.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'browser-host', testIgnore: [/electron\.spec\.ts$/, /electron-bundles\//] },
    { name: 'electron', testMatch: /electron\.spec\.ts$/ },
    { name: 'electron-bundles', testMatch: /electron-bundles\/.*\.spec\.ts$/ },
  ],
});
