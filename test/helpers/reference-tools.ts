import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { cachedVenv, venvCacheDir } from './cached-venv.js';
import { AAR_DATA_DIR, REPO_ROOT } from './data.js';

/**
 * The AAR authors' own tool code, `../shared/aar/reference/` (their MCP servers, MIT; run, never copied),
 * and a virtual environment with the packages it imports, made once from PyPI and kept in the user cache
 * under a hash of its requirements and the Python version (`~/.cache/aar/venvs/aar-reference-tools-<hash>`).
 */
/** Beside the released data (`shared/aar/data` -> `shared/aar/reference`), or AAR_REFERENCE_DIR. */
export const REFERENCE_DIR = process.env.AAR_REFERENCE_DIR ?? path.join(path.dirname(AAR_DATA_DIR), 'reference');
const REQUIREMENTS = path.join(REPO_ROOT, 'test', 'tools', 'differential', 'reference-requirements.txt');

export function referenceRequirements(): string[] {
  return readFileSync(REQUIREMENTS, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

let ready: Promise<string> | undefined;

/** The venv's python (their servers need Python 3.10 or newer: python3, or AAR_TEST_PYTHON). */
export function referencePython(): Promise<string> {
  return (ready ??= (async () => {
    const python = process.env.AAR_TEST_PYTHON ?? 'python3';
    const version = (await execa(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'])).stdout.trim();
    const [major, minor] = version.split('.').map(Number);
    if (major < 3 || (major === 3 && minor < 10)) throw new Error(`the AAR authors' tool servers need Python 3.10 or newer; ${python} is ${version} (set AAR_TEST_PYTHON)`);
    const packages = referenceRequirements();
    const hash = createHash('sha256').update(`${packages.join('\n')}\npy${version}`).digest('hex').slice(0, 12);
    return cachedVenv(path.join(venvCacheDir(), `aar-reference-tools-${hash}-py${version}`), python, packages, "the AAR authors' tool servers cannot run");
  })());
}
