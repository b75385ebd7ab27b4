import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

type ElectronAvailability = { ok: true; binary: string } | { ok: false; reason: string };

/**
 * Finds the Electron binary WITHOUT requiring the `electron` package: since v45 its index
 * downloads the binary on first require, which on an offline machine only fails slowly.
 */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env, platform = process.platform): ElectronAvailability {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, platform === 'win32' ? 'electron.exe' : 'electron');
    return fs.existsSync(binary) ? { ok: true, binary } : { ok: false, reason: `no Electron binary at ELECTRON_OVERRIDE_DIST_PATH (${binary})` };
  }
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { ok: false, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return { ok: false, reason: 'the Electron binary was never downloaded (no network access to its release host during install)' };
  const binary = path.join(packageDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  if (!fs.existsSync(binary)) return { ok: false, reason: `the Electron binary is missing (${binary})` };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { ok: false, reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { ok: true, binary };
}
