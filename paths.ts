import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding the package's own files (configs/, images/, tasks/examples/ ...), found by walking up
 * from this module: it runs both compiled (dist/paths.js) and from source (tests).
 */
function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'tasks', 'aar', 'instruction.md.tmpl'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the aar-harness package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();

export const packagePath = (...parts: string[]): string => path.join(PACKAGE_ROOT, ...parts);

/**
 * The released AAR data, read in place (never copied into the repository): AAR_DATA_DIR, else the first
 * `shared/aar/data` found beside the package or one of its parent folders.
 */
export function aarDataDir(): string {
  if (process.env.AAR_DATA_DIR) return process.env.AAR_DATA_DIR;
  for (let dir = path.dirname(PACKAGE_ROOT); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'aar', 'data');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(PACKAGE_ROOT, '..', 'shared', 'aar', 'data');
  }
}
