import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { aarDataDir } from '../../paths.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'tasks', 'examples');

/** The real AAR dataset, read in place (never copied into the repository). */
export const AAR_DATA_DIR = aarDataDir();
export const HAVE_AAR_DATA = existsSync(AAR_DATA_DIR);

/** `describe` that runs only where the real dataset is present, and says so where it is not. */
export const describeWithData: jest.Describe = HAVE_AAR_DATA
  ? describe
  : ((name: string, fn: () => void) => describe.skip(`${name} (no AAR data at ${AAR_DATA_DIR})`, fn)) as unknown as jest.Describe;

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'aar-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
