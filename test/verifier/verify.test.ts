import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../bench/synthetic-trials.js';
import { loadLegs } from '../../tasks/aar/load.js';
import type { AarFigures } from '../../tasks/aar/scoring/report.js';
import { aggregate } from '../../verifier/aggregate.js';
import { renderReport } from '../../verifier/report.js';
import { loadJobResults } from '../../verifier/results.js';
import { listTrialDirs, TRIAL_FILES, writeTrialFolder } from '../../trial/folder.js';
import { readTrialRecord } from '../../trial/record.js';
import { verifyJob } from '../../verifier/verify.js';
import { EXAMPLES_DIR, tempDir } from '../helpers/data.js';

async function exampleJob(dir: string): Promise<string[]> {
  const { legs } = await loadLegs(EXAMPLES_DIR);
  writeSyntheticJob(dir, [...legs, ...legs.map((l) => ({ ...l, id: l.id + '-again' }))], 3);
  return listTrialDirs(dir);
}

describe('verify: re-scoring a job from its files alone', () => {
  test('writes missing scores, then finds nothing to change, then repairs an edited score', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const trials = await exampleJob(dir);
      expect(trials).toHaveLength(6);
      const first = await verifyJob(dir, { workers: 1 });
      expect(first).toMatchObject({ trials: 6, scored: 6, infraErrors: 0, failures: [] });
      expect(first.changed).toHaveLength(6);
      expect(await verifyJob(dir, { workers: 1 })).toMatchObject({ changed: [] });

      const scoreFile = path.join(trials[2], TRIAL_FILES.score);
      const original = readFileSync(scoreFile, 'utf8');
      writeFileSync(scoreFile, original.replace(/"fa": \d/, '"fa": 7'));
      const dry = await verifyJob(dir, { workers: 1, dryRun: true });
      expect(dry.changed).toEqual([path.basename(trials[2])]);
      expect(readFileSync(scoreFile, 'utf8')).toContain('"fa": 7');
      const repaired = await verifyJob(dir, { workers: 1 });
      expect(repaired.changed).toEqual([path.basename(trials[2])]);
      expect(readFileSync(scoreFile, 'utf8')).toBe(original);
    } finally {
      cleanup();
    }
  });

  test('an infrastructure error is counted apart and never scored; an unreadable trial names its file', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const trials = await exampleJob(dir);
      const record = readTrialRecord(trials[0]);
      writeTrialFolder(dir, path.basename(trials[0]), {
        'trial.json': JSON.stringify({ ...record, status: 'infra_error', error: 'docker: container died' }),
        'leg.json': readFileSync(path.join(trials[0], 'leg.json')),
      });
      writeFileSync(path.join(trials[1], 'trial.json'), '{"format": "aar-harness/trial@1", "trial_id": 5}');
      rmSync(path.join(trials[3], 'leg.json'));
      const s = await verifyJob(dir, { workers: 1 });
      expect(s.infraErrors).toBe(1);
      expect(s.scored).toBe(3);
      expect(s.failures).toHaveLength(2);
      expect(s.failures.join('\n')).toContain(path.join(trials[1], 'trial.json') + ': trial_id');
      expect(s.failures.join('\n')).toContain(path.join(trials[3], 'leg.json') + ': missing');
    } finally {
      cleanup();
    }
  });

  test('trial folders are complete or absent: a half-written folder is not a trial', async () => {
    const { dir, cleanup } = tempDir();
    try {
      await exampleJob(dir);
      const before = listTrialDirs(dir).length;
      writeFileSync(path.join(dir, 'not-a-trial.txt'), 'x');
      expect(listTrialDirs(dir)).toHaveLength(before);
    } finally {
      cleanup();
    }
  });
});

describe('report', () => {
  test('aggregates per agent x model x variant x level, with intervals, in three formats', async () => {
    const { dir, cleanup } = tempDir();
    try {
      await exampleJob(dir);
      await verifyJob(dir, { workers: 1 });
      const rows = aggregate<AarFigures>(loadJobResults(dir));
      expect(rows.map((r) => `${r.variant}/${r.level}`)).toEqual(['*/*', 'examples-dag/*', 'examples-dag/medium', 'examples-linear/*', 'examples-linear/easy']);
      const all = rows[0];
      expect(all).toMatchObject({ agent: 'synthetic', model: '-', trials: 6, n: 6, infra_errors: 0 });
      expect(all.fa.lo!).toBeLessThanOrEqual(all.fa.mean!);
      expect(all.fa.hi!).toBeGreaterThanOrEqual(all.fa.mean!);
      const md = renderReport(rows, 'md');
      expect(md.split('\n')[0]).toContain('| agent | model | variant | level | n | FA % |');
      expect(md.trim().split('\n')).toHaveLength(2 + rows.length);
      const csv = renderReport(rows, 'csv').trim().split('\n');
      expect(csv[0].split(',')).toEqual(expect.arrayContaining(['agent', 'fa', 'fa_lo', 'fa_hi', 'pvr', 'rcr', 'diag_navigation']));
      expect(csv).toHaveLength(1 + rows.length);
      const json = JSON.parse(renderReport(rows, 'json'));
      expect(json[0]).toMatchObject({ agent: 'synthetic', n: 6 });
    } finally {
      cleanup();
    }
  });
});
