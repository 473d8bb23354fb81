import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../bench/synthetic-trials.js';
import { loadLegs } from '../../tasks/aar/load.js';
import type { AarFigures } from '../../tasks/aar/scoring/report.js';
import { aggregate } from '../../verifier/aggregate.js';
import { renderReport } from '../../verifier/report.js';
import { loadJobResults } from '../../verifier/results.js';
import { listTrialDirs, TRIAL_FILES, writeTrialFolder } from '../../trial/folder.js';
import { readTrialRecord } from '../../trial/record.js';
import { PREVIOUS_SCORE_FILE, sha256Hex } from '../../trial/file-hashes.js';
import { verifyFoundProblems, verifyJob } from '../../verifier/verify.js';
import { EXAMPLES_DIR, tempDir } from '../helpers/data.js';

async function exampleJob(dir: string): Promise<string[]> {
  const { legs } = await loadLegs(EXAMPLES_DIR);
  writeSyntheticJob(dir, [...legs, ...legs.map((l) => ({ ...l, id: l.id + '-again' }))], 3);
  return listTrialDirs(dir);
}

describe('verify: re-scoring a job from its files alone', () => {
  test('lists missing and changed scores and writes nothing; --fix writes them, keeping an edited score as score.prev.json', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const trials = await exampleJob(dir);
      expect(trials).toHaveLength(6);
      const first = await verifyJob(dir, { workers: 1 });
      expect(first).toMatchObject({ trials: 6, scored: 6, infraErrors: 0, failures: [], tampered: [], unsealed: 6 });
      expect(first.changed.map((c) => [c.missing, c.written])).toEqual(Array(6).fill([true, false]));
      expect(existsSync(path.join(trials[0], TRIAL_FILES.score))).toBe(false);
      expect((await verifyJob(dir, { workers: 1, fix: true })).changed.every((c) => c.written)).toBe(true);
      expect(await verifyJob(dir, { workers: 1 })).toMatchObject({ changed: [] });

      const scoreFile = path.join(trials[2], TRIAL_FILES.score);
      const original = readFileSync(scoreFile, 'utf8');
      const fa = (JSON.parse(original) as { fa: number }).fa;
      const edited = original.replace(/"fa": \d/, '"fa": 7');
      writeFileSync(scoreFile, edited);
      const dry = await verifyJob(dir, { workers: 1 });
      expect(dry.changed).toEqual([{ dir: trials[2], fields: [`fa 7 -> ${fa}`], missing: false, fromTamperedFiles: false, written: false }]);
      expect(readFileSync(scoreFile, 'utf8')).toBe(edited);
      const repaired = await verifyJob(dir, { workers: 1, fix: true });
      expect(repaired.changed.map((c) => [path.basename(c.dir), c.written])).toEqual([[path.basename(trials[2]), true]]);
      expect(readFileSync(scoreFile, 'utf8')).toBe(original);
      expect(readFileSync(path.join(trials[2], PREVIOUS_SCORE_FILE), 'utf8')).toBe(edited);
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

/** Every file of a job folder and its bytes' sha256: what "nothing was written" is checked against. */
function jobFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .map((f) => [path.relative(dir, f), sha256Hex(readFileSync(f))]),
  );
}

describe('verify: tampering shows (trial.json holds the sha256 of every file the harness wrote)', () => {
  test('an edited tool log, leg.json and score.json are each named, with the fields they change; nothing is written without --fix', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { legs } = await loadLegs(EXAMPLES_DIR);
      writeSyntheticJob(dir, legs, 9, { withScores: true });
      const [logEdited, legEdited, scoreEdited] = listTrialDirs(dir);
      expect(await verifyJob(dir, { workers: 1 })).toMatchObject({ trials: 3, scored: 3, changed: [], tampered: [], unsealed: 0, failures: [] });

      // The tool log cut to its first line (PVR drops although trial.json still says what ran), {} over a leg, FA forged.
      const log = path.join(logEdited, TRIAL_FILES.toolLog);
      writeFileSync(log, readFileSync(log, 'utf8').split('\n')[0] + '\n');
      writeFileSync(path.join(legEdited, TRIAL_FILES.leg), '{}');
      const scoreFile = path.join(scoreEdited, TRIAL_FILES.score);
      const original = readFileSync(scoreFile, 'utf8');
      const fa = (JSON.parse(original) as { fa: number }).fa;
      const forged = original.replace(/"fa": \d/, `"fa": ${1 - fa}`);
      writeFileSync(scoreFile, forged);
      const before = jobFiles(dir);

      const s = await verifyJob(dir, { workers: 1 });
      expect(s.tampered).toEqual([
        { dir: logEdited, files: [{ file: 'tool_log.jsonl', how: 'changed' }] },
        { dir: legEdited, files: [{ file: 'leg.json', how: 'changed' }] },
        { dir: scoreEdited, files: [{ file: 'score.json', how: 'changed' }] },
      ]);
      // The forged score would be put right; the edited log's score is shown, never written; {} is not a leg.
      expect(s.changed.map((c) => [c.dir, c.fromTamperedFiles, c.written])).toEqual([
        [logEdited, true, false],
        [scoreEdited, false, false],
      ]);
      expect(s.changed[0].fields).toEqual(expect.arrayContaining([expect.stringMatching(/^total_tool_calls \d+ -> 1$/)]));
      expect(s.changed[1].fields).toEqual([`fa ${1 - fa} -> ${fa}`]);
      expect(s.failures).toEqual([`${path.join(legEdited, TRIAL_FILES.leg)}: not an AAR leg: it has no "stops"`]);
      expect(verifyFoundProblems(s)).toBe(true);
      expect(jobFiles(dir)).toEqual(before);

      // --fix: only the trial whose inputs are intact gets its score back, the forged one kept as score.prev.json.
      const fixed = await verifyJob(dir, { workers: 1, fix: true });
      expect(fixed.changed.map((c) => [path.basename(c.dir), c.written])).toEqual([[path.basename(logEdited), false], [path.basename(scoreEdited), true]]);
      expect(readFileSync(scoreFile, 'utf8')).toBe(original);
      expect(readFileSync(path.join(scoreEdited, PREVIOUS_SCORE_FILE), 'utf8')).toBe(forged);
      const after = jobFiles(dir);
      for (const trial of [logEdited, legEdited]) {
        for (const [file, sha] of Object.entries(before)) if (file.startsWith(path.basename(trial))) expect([file, after[file]]).toEqual([file, sha]);
      }
      const again = await verifyJob(dir, { workers: 1 });
      expect(again.tampered.map((t) => t.dir)).toEqual([logEdited, legEdited]);
      expect(again.changed.map((c) => c.dir)).toEqual([logEdited]);
    } finally {
      cleanup();
    }
  });

  test('every failure names its trial: a tool log that is a folder, and one too large to read as text', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const [folderLog, hugeLog] = await exampleJob(dir);
      rmSync(path.join(folderLog, TRIAL_FILES.toolLog));
      mkdirSync(path.join(folderLog, TRIAL_FILES.toolLog));
      // A sparse file past V8's longest string (0x1fffffe8 characters): no disk space used.
      const huge = path.join(hugeLog, TRIAL_FILES.toolLog);
      truncateSync(huge, 0x1fffffe8 + 16);
      const s = await verifyJob(dir, { workers: 1 });
      expect(s.failures).toContain(`${path.join(folderLog, TRIAL_FILES.toolLog)}: a folder, not a file`);
      const hugeFailure = s.failures.find((f) => f.includes(path.basename(hugeLog)));
      // Scored (a scorer that streams the log), or one line naming the file.
      if (hugeFailure !== undefined) expect(hugeFailure).toMatch(new RegExp(`^${huge}: too large to read as text`));
      for (const f of s.failures) expect(f.split('\n')).toHaveLength(1);
      expect(s.failures.every((f) => f.startsWith(folderLog) || f.startsWith(hugeLog))).toBe(true);
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
      await verifyJob(dir, { workers: 1, fix: true });
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
