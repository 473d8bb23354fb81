import { execa } from 'execa';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedVenv, venvCacheDir } from './cached-venv.js';
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
    const venv = path.join(venvCacheDir(), `harbor-${HARBOR_VERSION}-inspect-ai-${INSPECT_AI_VERSION}-py${major}.${minor}`);
    return cachedVenv(venv, python, [`harbor==${HARBOR_VERSION}`, `inspect-ai==${INSPECT_AI_VERSION}`], "Harbor's and Inspect's models cannot check the exports");
  })());
}

/** Runs test/helpers/check_exports.py (`atif FILE...`, `inspect FILE...`, `harbor DIR`, `scan JOBS_DIR`) and returns its JSON. */
export async function checkWithPython<T = Record<string, unknown>>(kind: 'atif' | 'inspect' | 'harbor' | 'scan', args: string[]): Promise<T> {
  const python = await pythonWithTools();
  const run = await execa(python, [CHECKER, kind, ...args], { reject: false, maxBuffer: 256 * 1024 * 1024 });
  if (run.exitCode !== 0) throw new Error(`${kind} check failed: ${run.stderr.slice(-3000)}`);
  return JSON.parse(run.stdout) as T;
}

