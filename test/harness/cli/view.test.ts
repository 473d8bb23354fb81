import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

describe('aar report --format html and aar view, as processes', () => {
  test('report --format html writes one page; a missing job folder is a one-line error for both', async () => {
    const { dir, cleanup } = tempDir('aar-html-cli-');
    try {
      const { legs } = await loadLegs(EXAMPLES_DIR);
      const job = path.join(dir, 'job');
      writeSyntheticJob(job, legs, 3, { withScores: true });
      const out = path.join(dir, 'report.html');
      const made = runAar(['report', job, '--format', 'html', '--out', out]);
      expect(made).toMatchObject({ status: 0, stdout: `wrote ${out}\n`, stderr: '' });
      const html = readFileSync(out, 'utf8');
      expect(html).toMatch(/^<!doctype html>/);
      expect(html.match(/id="trial-data-\d+"/g)).toHaveLength(3);

      const missing = path.join(dir, 'nope');
      for (const args of [['report', missing, '--format', 'html'], ['view', missing]]) {
        const r = runAar(args);
        expect(r.status).toBe(1);
        expect(r.stderr).toBe(`aar: ${missing}: no such job folder\n`);
      }
      expect(runAar(['view', job, '--port', 'x']).stderr).toBe('aar: --port: expected a port number, got x\n');
      // A folder that is neither a job nor holds one, and no folder with no jobs/ where aar view runs: refused in one line.
      const other = path.join(dir, 'other');
      mkdirSync(path.join(other, 'sub'), { recursive: true });
      writeFileSync(path.join(other, 'notes.txt'), 'mine\n');
      expect(runAar(['view', other])).toMatchObject({ status: 1, stdout: '', stderr: `aar: ${other}: not a job folder nor a folder of jobs (no job.json or trial folder in it or in its sub-folders)\n` });
      expect(runAar(['view'], { cwd: other })).toMatchObject({ status: 1, stderr: 'aar: jobs: no such folder (give a job folder or a folder of jobs)\n' });
    } finally {
      cleanup();
    }
  });
});
