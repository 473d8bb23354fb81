import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './data.js';

/**
 * Harbor's and Inspect AI's own Python packages, in a virtual environment built once and kept in the user's
 * cache (AAR_VENV_CACHE, else $XDG_CACHE_HOME/aar/venvs, else ~/.cache/aar/venvs), keyed by their versions and
 * the interpreter's (so a rerun, and the next `npm test`, takes a second): the tests read our trajectory.json
 * and exports back with their models and Harbor's viewer scanner. harbor needs Python 3.12 or newer: the
 * first of AAR_TEST_PYTHON, python3.12 (bench:peers's), pyenv's 3.12+ (oldest first), python3.13 and
 * python3 that is new enough is used. No interpreter, or PyPI out of reach,
 * is an error saying so (never a silent pass).
 */
export const HARBOR_VERSION = '0.26.0';
export const INSPECT_AI_VERSION = '0.3.285';
const CHECKER = path.join(REPO_ROOT, 'test', 'helpers', 'check_exports.py');

async function versionOf(python: string): Promise<[number, number] | null> {
  const run = await execa(python, ['-c', 'import sys; print(sys.version_info[0], sys.version_info[1])'], { reject: false });
  if (run.exitCode !== 0) return null;
  const [major, minor] = run.stdout.trim().split(' ').map(Number);
  return [major!, minor!];
}

async function findPython(): Promise<string> {
  const pyenv = path.join(os.homedir(), '.pyenv', 'versions');
  const fromPyenv = existsSync(pyenv)
    ? readdirSync(pyenv)
        .filter((v) => /^3\.(1[2-9])\./.test(v))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
        .map((v) => path.join(pyenv, v, 'bin', 'python3'))
    : [];
  // 3.12 first (bench:peers's): a `python3.12` on the PATH, else pyenv's oldest 3.12+, else a newer one.
  const candidates = [process.env.AAR_TEST_PYTHON, 'python3.12', ...fromPyenv, 'python3.13', 'python3'].filter((c): c is string => !!c);
  for (const python of candidates) {
    const version = await versionOf(python).catch(() => null);
    if (version && (version[0] > 3 || (version[0] === 3 && version[1] >= 12))) return python;
  }
  throw new Error(`harbor ${HARBOR_VERSION} needs Python 3.12 or newer, and none was found (tried ${candidates.join(', ')}); set AAR_TEST_PYTHON`);
}

let ready: Promise<string> | undefined;

/** The venv's python, made on first use (pip install harbor and inspect-ai from PyPI). */
export function pythonWithTools(): Promise<string> {
  return (ready ??= (async () => {
    const python = await findPython();
    const [major, minor] = (await versionOf(python))!;
    const cache = process.env.AAR_VENV_CACHE ?? path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aar', 'venvs');
    mkdirSync(cache, { recursive: true });
    const venv = path.join(cache, `harbor-${HARBOR_VERSION}-inspect-ai-${INSPECT_AI_VERSION}-py${major}.${minor}`);
    const venvPython = path.join(venv, 'bin', 'python');
    if (existsSync(path.join(venv, '.complete'))) return venvPython;
    // One test process installs at a time (2 cores): the others wait for its venv.
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
      const packages = [`harbor==${HARBOR_VERSION}`, `inspect-ai==${INSPECT_AI_VERSION}`];
      const pip = await execa(path.join(staging, 'bin', 'python'), ['-m', 'pip', 'install', '--disable-pip-version-check', '--progress-bar', 'off', ...packages], { reject: false, all: true });
      if (pip.exitCode !== 0) {
        // No version at all of a package that has them (the interpreter is new enough): the index did not answer.
        const unreachable = /Could not fetch URL|Network is unreachable|Temporary failure in name resolution|NewConnectionError|Max retries exceeded|ConnectTimeout|\(from versions: none\)/i.test(pip.all ?? '');
        throw new Error(`${unreachable ? 'PyPI could not be reached, so Harbor\'s and Inspect\'s models cannot check the exports: ' : ''}pip install ${packages.join(' ')} failed:\n${(pip.all ?? '').slice(-2000)}`);
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
  })());
}

/** Runs test/helpers/check_exports.py (`atif FILE...`, `inspect FILE...`, `harbor DIR`, `scan JOBS_DIR`) and returns its JSON. */
export async function checkWithPython<T = Record<string, unknown>>(kind: 'atif' | 'inspect' | 'harbor' | 'scan', args: string[]): Promise<T> {
  const python = await pythonWithTools();
  const run = await execa(python, [CHECKER, kind, ...args], { reject: false, maxBuffer: 256 * 1024 * 1024 });
  if (run.exitCode !== 0) throw new Error(`${kind} check failed: ${run.stderr.slice(-3000)}`);
  return JSON.parse(run.stdout) as T;
}

