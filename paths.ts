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
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'tasks', 'instruction.md.tmpl'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the aar-harness package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();

export const packagePath = (...parts: string[]): string => path.join(PACKAGE_ROOT, ...parts);
