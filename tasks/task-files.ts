import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { InputProblem } from './problems.js';

/** Every `*.json` under a folder, sorted, skipping dot folders. */
export async function findTaskFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.name.startsWith('.')) return;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && entry.name.endsWith('.json')) found.push(full);
      }),
    );
  };
  await walk(root);
  return found.sort();
}

/**
 * The task files that paths name: a file itself, a folder's `*.json` files (but those `skip` refuses); a
 * path that does not exist is a problem, not an exception.
 */
export async function expandTaskPaths(paths: readonly string[], skip: (file: string) => boolean = () => false): Promise<{ files: string[]; problems: InputProblem[] }> {
  const files: string[] = [];
  const problems: InputProblem[] = [];
  for (const root of paths) {
    let info;
    try {
      info = await stat(root);
    } catch {
      problems.push({ file: root, path: '', message: 'no such file or folder' });
      continue;
    }
    if (info.isDirectory()) files.push(...(await findTaskFiles(root)).filter((f) => !skip(f)));
    else files.push(root);
  }
  return { files, problems };
}
