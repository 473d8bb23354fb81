import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lastBuildSeconds, recordBuildSeconds, stepLine } from '../../images/build-times.js';
import { buildRecipe, IMAGE_LABEL, type ImageRecipe } from '../../images/build.js';
import { docker, dockerAvailable } from '../../common/docker.js';
import { REPO_ROOT, tempDir } from '../helpers/data.js';

const HAVE_DOCKER = await dockerAvailable();
jest.setTimeout(180_000);

/** A first build takes minutes: it says what it is doing, layer by layer, and how long the last one took. */
describe('image builds show their progress', () => {
  test('step lines and the recorded build time', () => {
    expect(stepLine('Step 3/14 : RUN apt-get update &&     apt-get install -y curl')).toBe('step 3/14: RUN apt-get update && apt-get install -y curl');
    expect(stepLine(' ---> Running in 0123abcd')).toBeNull();
    expect(stepLine(`Step 1/2 : RUN ${'x'.repeat(200)}`)).toHaveLength(100);
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'times.json');
      expect(lastBuildSeconds('base', file)).toBeUndefined();
      recordBuildSeconds('base', 291.4, file);
      recordBuildSeconds('codex', 12, file);
      expect([lastBuildSeconds('base', file), lastBuildSeconds('codex', file)]).toEqual([291, 12]);
      writeFileSync(file, '{not json');
      expect(lastBuildSeconds('base', file)).toBeUndefined();
    } finally {
      cleanup();
    }
  });

  (HAVE_DOCKER ? test : test.skip)('a real build logs its start, each step and its duration; the next build says how long the last one took', async () => {
    const [base] = (await docker().listImages({ filters: { label: [`${IMAGE_LABEL}=base`] } })).flatMap((i) => (i.RepoTags ?? []).filter((t) => t !== '<none>:<none>'));
    expect(base).toBeDefined();
    const tags: string[] = [];
    try {
      for (const round of [1, 2]) {
        const nonce = randomBytes(4).toString('hex');
        const recipe: ImageRecipe = { name: 'progress-probe', dockerfile: `FROM ${base}\nENV PROBE=${nonce}\nWORKDIR /probe\n`, files: {}, buildArgs: {} };
        const lines: string[] = [];
        const tag = await buildRecipe(recipe, (l) => lines.push(l));
        tags.push(tag);
        expect(lines[0]).toMatch(round === 1 ? new RegExp(`^building ${tag} \\((first build here: a few minutes|the last build took \\d+ s)\\)$`) : new RegExp(`^building ${tag} \\(the last build took \\d+ s\\)$`));
        expect(lines.filter((l) => l.startsWith('step '))).toEqual([
          `step 1/5: FROM ${base}`,
          `step 2/5: LABEL ${IMAGE_LABEL}="progress-probe"`,
          `step 3/5: ENV PROBE=${nonce}`,
          'step 4/5: WORKDIR /probe',
          expect.stringMatching(/^step 5\/5: LABEL /),
        ]);
        expect(lines.at(-1)).toMatch(new RegExp(`^built ${tag} in \\d+ s$`));
      }
    } finally {
      for (const tag of tags) await docker().getImage(tag).remove().catch(() => {});
    }
  });

  test('the Debian bootstrap prints one line per debootstrap phase, and what it imports', () => {
    const { dir, cleanup } = tempDir();
    try {
      const bin = path.join(dir, 'bin');
      mkdirSync(bin);
      const fake = (name: string, body: string) => {
        writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
        chmodSync(path.join(bin, name), 0o755);
      };
      // debootstrap's own output: many lines per phase; the root folder is its 4th argument.
      fake('debootstrap', 'for p in a b c; do echo "I: Retrieving $p"; done; echo "I: Validating a"; echo "I: Validating b"; echo "W: a warning"; echo "I: Extracting a"; mkdir -p "$4/var/lib/apt/lists" "$4/etc/apt"');
      fake('docker', 'cat >/dev/null');
      const r = spawnSync('bash', [path.join(REPO_ROOT, 'images', 'bootstrap-debian.sh'), 'probe:tag', 'http://mirror.invalid/debian'], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n')).toEqual([
        'bootstrap-debian: debootstrap bookworm from http://mirror.invalid/debian (a few minutes)',
        'bootstrap-debian: Retrieving a',
        'bootstrap-debian: Validating a',
        'bootstrap-debian: Extracting a',
        'bootstrap-debian: importing the file system into the engine as probe:tag',
        'bootstrap-debian: imported probe:tag',
        '',
      ]);
      expect(r.status).toBe(0);
      fake('debootstrap', 'echo "I: Retrieving a"; echo "E: no route to mirror"; exit 1');
      const failed = spawnSync('bash', [path.join(REPO_ROOT, 'images', 'bootstrap-debian.sh'), 'probe:tag'], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain('E: no route to mirror');
    } finally {
      cleanup();
    }
  });
});
