import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where test venvs are kept: AAR_VENV_CACHE, else $XDG_CACHE_HOME/aar/venvs, else ~/.cache/aar/venvs. */
export const venvCacheDir = (): string =>
  process.env.AAR_VENV_CACHE ?? path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aar', 'venvs');

/**
 * A Python virtual environment made once at `venv` (its packages from PyPI) and used as it is afterwards:
 * test processes that need it at once wait for the one making it (2 cores), and a half-made one is never
 * used (it is made aside and renamed into place when complete). No PyPI is an error saying so (never a
 * silent pass). Returns its python.
 */
export async function cachedVenv(venv: string, python: string, packages: readonly string[], what: string): Promise<string> {
  const venvPython = path.join(venv, 'bin', 'python');
  if (existsSync(path.join(venv, '.complete'))) return venvPython;
  mkdirSync(path.dirname(venv), { recursive: true });
  const lock = `${venv}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(path.join(venv, '.complete'))) return venvPython;
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 20 * 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  if (existsSync(path.join(venv, '.complete'))) {
    rmSync(lock, { recursive: true, force: true });
    return venvPython;
  }
  const staging = mkdtempSync(`${venv}.partial-`);
  try {
    await execa(python, ['-m', 'venv', staging]);
    const pip = await execa(path.join(staging, 'bin', 'python'), ['-m', 'pip', 'install', '--disable-pip-version-check', '--progress-bar', 'off', ...packages], { reject: false, all: true });
    if (pip.exitCode !== 0) {
      // No version at all of a package that has them (the interpreter is new enough): the index did not answer.
      const unreachable = /Could not fetch URL|Network is unreachable|Temporary failure in name resolution|NewConnectionError|Max retries exceeded|ConnectTimeout|\(from versions: none\)/i.test(pip.all ?? '');
      throw new Error(`${unreachable ? `PyPI could not be reached, so ${what}: ` : ''}pip install ${packages.join(' ')} failed:\n${(pip.all ?? '').slice(-2000)}`);
    }
    writeFileSync(path.join(staging, '.complete'), '');
    // bin/python finds its packages from where it is, so the finished venv is renamed into place (another
    // test process that got there first wins; its venv is as good).
    try {
      renameSync(staging, venv);
    } catch {
      if (!existsSync(path.join(venv, '.complete'))) throw new Error(`${venv}: could not be put in place`);
    }
    return venvPython;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(lock, { recursive: true, force: true });
  }
}
