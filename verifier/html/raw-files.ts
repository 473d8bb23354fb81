import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Files a trial page links to at most (a trial folder holds a handful; an agent's log folders may hold more). */
export const LISTED_FILES = 200;

/**
 * The regular files of a trial folder, by path relative to it (sorted, "/" separated), with their sizes. Links
 * are not followed and at most LISTED_FILES are listed: names under agent/ came out of the container.
 */
export function listTrialFiles(dir: string): { path: string; bytes: number }[] {
  const files: { path: string; bytes: number }[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(path.join(dir, rel)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (files.length >= LISTED_FILES) return;
      const relPath = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(path.join(dir, relPath), { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(relPath);
      else if (stat?.isFile()) files.push({ path: relPath, bytes: stat.size });
    }
  };
  walk('');
  return files;
}

/**
 * The file a raw link names inside a trial folder, or null: the path must stay inside the folder once
 * resolved (no `..`, no link leading out) and name a regular file.
 */
export function rawFileIn(dir: string, relPath: string): string | null {
  if (!relPath || relPath.includes('\0') || path.isAbsolute(relPath)) return null;
  const root = realpathSync(dir);
  const file = path.resolve(root, relPath);
  if (!file.startsWith(root + path.sep)) return null;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return null;
  }
  if (!real.startsWith(root + path.sep)) return null;
  return lstatSync(real).isFile() ? real : null;
}
