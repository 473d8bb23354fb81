import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../paths.js';

/** How long the last build of each image took (seconds, by recipe name), so the next build can say so. */
export const BUILD_TIMES_FILE = packagePath('.aar-cache', 'image-build-times.json');

export function lastBuildSeconds(name: string, file = BUILD_TIMES_FILE): number | undefined {
  try {
    const value = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[name];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: an installed package may sit in a folder this user cannot write. */
export function recordBuildSeconds(name: string, seconds: number, file = BUILD_TIMES_FILE): void {
  try {
    let times: Record<string, unknown> = {};
    try {
      times = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // none yet, or unreadable: start again
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ ...times, [name]: Math.round(seconds) }, null, 2) + '\n');
  } catch {
    // not recorded: the next build just does not say how long the last one took
  }
}

/** `Step 3/14 : RUN apt-get ...` (the engine's build output) as `step 3/14: RUN apt-get ...`, else null. */
export function stepLine(line: string, maxChars = 100): string | null {
  const m = /^Step (\d+)\/(\d+) : (.*)$/.exec(line);
  if (!m) return null;
  const text = `step ${m[1]}/${m[2]}: ${m[3].replace(/\s+/g, ' ')}`;
  return text.length > maxChars ? `${text.slice(0, maxChars - 3)}...` : text;
}
