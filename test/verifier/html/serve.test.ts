import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { serveReport } from '../../../verifier/html/serve.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

const trialCount = (html: string) => html.match(/id="trial-data-\d+"/g)?.length ?? 0;

describe('aar view: the report served on loopback', () => {
  test('serves the page on 127.0.0.1, follows a job that gains trials, answers 404 elsewhere and 500 when the job went away', async () => {
    const { dir, cleanup } = tempDir('aar-html-serve-');
    const { legs } = await loadLegs(EXAMPLES_DIR);
    const job = path.join(dir, 'job');
    writeSyntheticJob(job, legs.slice(0, 2), 1, { withScores: true });
    const server = await serveReport([job]);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const first = await fetch(server.url);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(trialCount(await first.text())).toBe(2);
      // A trial folder renamed into place, as a running job does.
      const more = path.join(dir, 'more');
      writeSyntheticJob(more, legs.slice(2), 1, { withScores: true });
      const name = 'synthetic__examples-linear__easy__sample_003__1';
      cpSync(path.join(more, name), path.join(job, name), { recursive: true });
      expect(trialCount(await (await fetch(server.url)).text())).toBe(3);
      expect((await fetch(new URL('/other', server.url))).status).toBe(404);
      rmSync(job, { recursive: true });
      const gone = await fetch(server.url);
      expect(gone.status).toBe(500);
      expect(await gone.text()).toMatch(/^could not build the report: /);
    } finally {
      await server.close();
      cleanup();
    }
  });
});
