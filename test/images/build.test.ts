import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMAGE_LABEL, labelledDockerfile, recipeTag, removeUnfinishedImages, type ImageRecipe } from '../../images/build.js';
import { docker, dockerAvailable } from '../../common/docker.js';
import { runAar } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/data.js';

const HAVE_DOCKER = await dockerAvailable();
jest.setTimeout(120_000);

describe('image builds', () => {
  test('every image a build commits carries the label (after each FROM); the tag does not change with it', () => {
    const recipe: ImageRecipe = { name: 'probe', dockerfile: 'ARG B=x\nFROM ${B} AS one\nRUN true\nfrom one\nRUN false\n', files: {}, buildArgs: {} };
    expect(labelledDockerfile(recipe)).toBe(`ARG B=x\nFROM \${B} AS one\nLABEL ${IMAGE_LABEL}="probe"\nRUN true\nfrom one\nLABEL ${IMAGE_LABEL}="probe"\nRUN false\n`);
    expect(recipeTag(recipe)).toMatch(/^aar-probe:[0-9a-f]{12}$/);
  });

  (HAVE_DOCKER ? test : test.skip)('an interrupted build leaves no <none> image in `aar images list`, and the next build removes it', async () => {
    const [base] = (await docker().listImages({ filters: { label: [`${IMAGE_LABEL}=base`] } })).flatMap((i) => (i.RepoTags ?? []).filter((t) => t !== '<none>:<none>'));
    expect(base).toBeDefined();
    const name = `h9b-probe-${randomBytes(4).toString('hex')}`;
    const recipe: ImageRecipe = { name, dockerfile: `FROM ${base}\nRUN echo ${name} > /probe\nRUN sleep 60\n`, files: {}, buildArgs: {} };
    const script = `import { buildRecipe } from ${JSON.stringify(path.join(REPO_ROOT, 'dist', 'images', 'build.js'))};\nawait buildRecipe(${JSON.stringify(recipe)}, (l) => console.log(l));`;
    try {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          if (/RUN sleep 60[\s\S]*Running in/.test(out)) resolve();
        });
        child.once('exit', () => reject(new Error(`the build ended before it could be interrupted:\n${out}`)));
      });
      child.kill('SIGKILL');
      rmSync(path.join(os.tmpdir(), `aar-lock-${recipeTag(recipe).replace(/[^A-Za-z0-9._-]/g, '_')}`), { force: true });
      const left = async () => docker().listImages({ filters: { dangling: ['true'], label: [`${IMAGE_LABEL}=${name}`] } });
      for (let i = 0; i < 50 && !(await left()).length; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await left()).toHaveLength(1);

      const list = runAar(['images', 'list']);
      expect(list.status).toBe(0);
      expect(list.stdout).not.toMatch(/^<none>/m);
      expect(list.stdout).toMatch(/untagged images left by interrupted builds are not listed; the next build removes them\)$/m);
      // The engine drops the cancelled step's container a moment after the client is gone; until then it holds the image.
      let removed = 0;
      for (let i = 0; i < 100 && !removed; i++) {
        removed = await removeUnfinishedImages({ name, olderThanMs: 0 });
        if (!removed) await new Promise((r) => setTimeout(r, 200));
      }
      expect(removed).toBe(1);
      expect(await left()).toEqual([]);
    } finally {
      for (let i = 0; i < 50 && (await removeUnfinishedImages({ name, olderThanMs: 0 })) > 0; i++);
    }
  });
});
