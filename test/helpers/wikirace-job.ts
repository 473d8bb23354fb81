import { afterAll, beforeAll } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { tempDir } from './data.js';
import { writeTestGame } from './wikirace.js';

type Pair = { split: string; source: string; target: string };

/**
 * A WikiRace job's set-up shared by the job tests: a temporary folder (removed after the file's tests), the
 * test game with `pairs` written to `<dir>/tasks` before them, and `writeConfig(name, overrides)`, a job
 * config over that game (output in `<dir>/jobs`, live tools, no infra retries) with `defaults` under the
 * overrides. `before` runs first in the beforeAll (e.g. to set keys).
 */
export function wikiraceJobSetup(prefix: string, pairs: readonly Pair[], defaults: Record<string, unknown>, before?: () => void) {
  const tmp = tempDir(prefix);
  afterAll(() => tmp.cleanup());
  beforeAll(async () => {
    before?.();
    await writeTestGame(path.join(tmp.dir, 'tasks'), [...pairs] as Parameters<typeof writeTestGame>[1]);
  });
  const writeConfig = (name: string, overrides: Record<string, unknown>): string => {
    const file = path.join(tmp.dir, `${name}.yaml`);
    writeFileSync(
      file,
      stringify({
        name,
        output: path.join(tmp.dir, 'jobs'),
        tasks: { family: 'wikirace', path: path.join(tmp.dir, 'tasks') },
        ...defaults,
        tools: { mode: 'live' },
        infra_retries: 0,
        ...overrides,
      }),
    );
    return file;
  };
  return { tmp, writeConfig };
}
