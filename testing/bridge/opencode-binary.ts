import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the real `opencode` binary is, for the tests and the benchmark that start `opencode serve`.
 * opencode-ai ships it as one package per platform (its optionalDependencies, 1.18.33):
 * opencode-{linux,darwin,windows}-{x64,arm64}, with -baseline (no AVX2) and -musl variants on
 * some; each holds bin/opencode (bin/opencode.exe on Windows). OPENCODE_BIN overrides the lookup.
 * The binary is about 100 MB and only tests need it, so it may be missing: callers skip, saying why.
 */
export type OpencodeBinary = { ok: true; path: string } | { ok: false; reason: string };

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };

/** The platform packages that can run here, best first (the plain build, then baseline and musl ones). */
export function opencodePackages(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  const os = OS_NAMES[platform];
  if (!os || (arch !== 'x64' && arch !== 'arm64')) return [];
  const base = `opencode-${os}-${arch}`;
  const variants = [base];
  if (arch === 'x64') variants.push(`${base}-baseline`);
  if (os === 'linux') variants.push(`${base}-musl`, ...(arch === 'x64' ? [`${base}-baseline-musl`] : []));
  return variants;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function findOpencodeBinary(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, arch: string = process.arch): OpencodeBinary {
  if (env.OPENCODE_BIN) {
    return fs.existsSync(env.OPENCODE_BIN) ? { ok: true, path: env.OPENCODE_BIN } : { ok: false, reason: `OPENCODE_BIN names no file (${env.OPENCODE_BIN})` };
  }
  const packages = opencodePackages(platform, arch);
  if (packages.length === 0) return { ok: false, reason: `opencode ships no binary for ${platform}-${arch}; set OPENCODE_BIN to one` };
  const requireFromRepo = createRequire(path.join(repoRoot, 'package.json'));
  for (const name of packages) {
    let dir: string;
    try {
      dir = path.dirname(requireFromRepo.resolve(`${name}/package.json`));
    } catch {
      continue;
    }
    const binary = path.join(dir, 'bin', platform === 'win32' ? 'opencode.exe' : 'opencode');
    if (fs.existsSync(binary)) return { ok: true, path: binary };
  }
  return { ok: false, reason: `the opencode binary is not installed: \`npm install --no-save ${packages[0]}@1.18.33\` (or set OPENCODE_BIN)` };
}

/** The lookup for this machine, done once. */
export const opencodeBinary: OpencodeBinary = findOpencodeBinary();

/** For a test title: empty when the binary is here, else why the tests below are skipped. */
export const opencodeSkipNote = opencodeBinary.ok ? '' : ` (skipped: ${opencodeBinary.reason})`;
