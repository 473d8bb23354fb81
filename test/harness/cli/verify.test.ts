import { jest } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { sha256Hex } from '../../../trial/file-hashes.js';
import { runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
jest.setTimeout(300_000);

/** Every file under a folder and its sha256: what "nothing was rewritten" is checked against. */
function filesOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .map((f) => [path.relative(dir, f), sha256Hex(readFileSync(f))]),
  );
}

describeDocker('aar verify on a job the harness ran (Docker): tampering shows', () => {
  const tmp = tempDir('aar-verify-tamper-');
  afterAll(() => tmp.cleanup());

  test('a tool log, a leg.json and a score.json edited: the three named, exit 1, nothing rewritten without --fix; --fix keeps score.prev.json', () => {
    const config = writeJobConfig(tmp.dir, { name: 'tamper', tasks: { path: EXAMPLES_DIR } }, 'tamper.yaml');
    const run = runAar(['run', config, '--progress', 'quiet', '--no-report']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const job = path.join(tmp.dir, 'jobs', 'tamper');
    const [logTrial, legTrial, scoreTrial] = readdirSync(job).filter((d) => !d.startsWith('.') && d !== 'job.json').sort();

    // trial.json holds the sha256 of every file the run wrote, score.json included; a fresh job verifies clean.
    const record = JSON.parse(readFileSync(path.join(job, logTrial, 'trial.json'), 'utf8'));
    expect(Object.keys(record.file_sha256)).toEqual(expect.arrayContaining(['leg.json', 'instruction.md', 'answer.txt', 'tool_log.jsonl', 'score.json', 'agent/stdout.log']));
    expect(record.file_sha256['score.json']).toBe(sha256Hex(readFileSync(path.join(job, logTrial, 'score.json'))));
    const clean = runAar(['verify', job]);
    expect([clean.status, clean.stdout]).toEqual([0, '3 trials: 3 scored, 0 would change, 0 tampered, 0 infrastructure errors (not scored)\n']);

    // The oracle's tool log cut to one line, {} over a leg, and FA forged from 1 to 0.
    const log = path.join(job, logTrial, 'tool_log.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').split('\n')[0] + '\n');
    writeFileSync(path.join(job, legTrial, 'leg.json'), '{}');
    const scoreFile = path.join(job, scoreTrial, 'score.json');
    const original = readFileSync(scoreFile, 'utf8');
    expect(original).toContain('"fa": 1');
    const forged = original.replace('"fa": 1', '"fa": 0');
    writeFileSync(scoreFile, forged);
    const before = filesOf(job);

    const report = runAar(['report', job]);
    expect(report.status).toBe(0);
    // Each of the three named (the report uses the stored scores as they are, and says which are not the harness's).
    const changed = (trial: string, file: string) => `aar: warning: ${path.join(job, trial)}: ${file} changed after the run (its seal in trial.json says otherwise); its stored score is used as it is; aar verify ${job} says what changed`;
    expect(report.stderr.split('\n').filter(Boolean).sort()).toEqual(
      [changed(logTrial, 'tool_log.jsonl'), changed(legTrial, 'leg.json'), `aar: warning: ${scoreFile} does not match the sha256 its trial.json holds (edited after the run); aar verify ${job} says what changed`].sort(),
    );
    const compare = runAar(['compare', job]);
    expect(compare.stderr).toContain(`aar: warning: ${scoreFile} does not match the sha256 its trial.json holds`);

    const verify = runAar(['verify', job]);
    expect(verify.status).toBe(1);
    const lines = verify.stdout.trim().split('\n');
    expect(lines[0]).toBe('3 trials: 2 scored, 1 would change, 3 tampered, 0 infrastructure errors (not scored), 1 unreadable');
    expect(lines.filter((l) => l.includes('tampered: '))).toEqual([
      `  tampered: ${log} (changed after the run)`,
      `  tampered: ${path.join(job, legTrial, 'leg.json')} (changed after the run)`,
      `  tampered: ${scoreFile} (changed after the run)`,
    ]);
    expect(lines).toContain(`  would change: ${scoreTrial}: fa 0 -> 1`);
    expect(lines.find((l) => l.startsWith('  edited files would give: '))).toMatch(new RegExp(`^  edited files would give: ${logTrial}: .*pvr 1 -> 0\\.\\d+.* \\(not written: a trial with edited files is never re-scored\\)$`));
    expect(verify.stderr).toBe(`aar: ${path.join(job, legTrial, 'leg.json')}: not an AAR leg: it has no "stops"\n`);
    expect(filesOf(job)).toEqual(before);

    // The same findings as one JSON object (the library's VerifySummary), for scripts.
    const json = runAar(['verify', job, '--format', 'json']);
    expect(json.status).toBe(1);
    const summary = JSON.parse(json.stdout);
    expect([summary.trials, summary.scored, summary.changed.length, summary.tampered.length, summary.failures.length]).toEqual([3, 2, 2, 3, 1]);
    // One change is the forged score; the other is what the edited tool log would give (never written).
    expect(summary.changed.map((c: { fromTamperedFiles: boolean; written: boolean }) => [c.fromTamperedFiles, c.written]).sort()).toEqual([[false, false], [true, false]]);
    expect(summary.tampered.flatMap((t: { files: Array<{ file: string }> }) => t.files.map((f) => path.basename(f.file))).sort()).toEqual(['leg.json', 'score.json', 'tool_log.jsonl']);
    expect(filesOf(job)).toEqual(before);

    const fix = runAar(['verify', job, '--fix']);
    expect(fix.status).toBe(1);
    expect(fix.stdout).toContain(`  changed: ${scoreTrial}: fa 0 -> 1 (the previous score kept in score.prev.json)`);
    expect(readFileSync(scoreFile, 'utf8')).toBe(original);
    expect(readFileSync(path.join(job, scoreTrial, 'score.prev.json'), 'utf8')).toBe(forged);
    // The trials with edited inputs are left exactly as they were.
    const after = filesOf(job);
    for (const [file, sha] of Object.entries(before)) if (!file.startsWith(scoreTrial)) expect([file, after[file]]).toEqual([file, sha]);
    // The restored score is sealed again: only the two edited trials are still named.
    const again = runAar(['verify', job]);
    expect(again.status).toBe(1);
    expect(again.stdout.split('\n').filter((l) => l.includes('tampered: '))).toHaveLength(2);
    // The report's warnings now name only those two: the score is the harness's again.
    expect(runAar(['report', job]).stderr.split('\n').filter(Boolean).sort()).toEqual([changed(logTrial, 'tool_log.jsonl'), changed(legTrial, 'leg.json')].sort());
  });
});

describe('report and compare warn about a score.json that is not the one the harness wrote', () => {
  test('Markdown, HTML and compare each name the trial; the report still goes out', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { legs } = await loadLegs(EXAMPLES_DIR);
      writeSyntheticJob(dir, legs, 9, { withScores: true, job: { name: 'cli', timeout_s: 600, budget: { steps: 'auto' } } });
      const scoreFile = path.join(dir, readdirSync(dir).filter((d) => !d.startsWith('.') && d !== 'job.json').sort()[0], 'score.json');
      expect(runAar(['report', dir]).stderr).toBe('');
      writeFileSync(scoreFile, readFileSync(scoreFile, 'utf8').replace(/"fa": \d/, '"fa": 5'));
      const warning = `aar: warning: ${scoreFile} does not match the sha256 its trial.json holds (edited after the run); aar verify ${dir} says what changed\n`;
      const md = runAar(['report', dir]);
      expect([md.status, md.stderr]).toEqual([0, warning]);
      expect(md.stdout).toMatch(/^\| agent \| model \|/);
      expect(runAar(['report', dir, '--format', 'html', '--out', path.join(dir, 'report.html')]).stderr).toBe(warning);
      const compare = runAar(['compare', dir]);
      expect([compare.status, compare.stderr]).toEqual([0, warning]);
    } finally {
      cleanup();
    }
  });
});

describe('one-line errors naming the file', () => {
  test('aar score --leg: {} is not a leg, and a folder is not a file', () => {
    const { dir, cleanup } = tempDir();
    try {
      const leg = path.join(dir, 'leg.json');
      writeFileSync(leg, '{}');
      const notLeg = runAar(['score', '--leg', leg]);
      expect([notLeg.status, notLeg.stdout, notLeg.stderr]).toEqual([1, '', `aar: ${leg}: not an AAR leg: it has no "stops"\n`]);
      writeFileSync(leg, '{"stops": []}');
      expect(runAar(['score', '--leg', leg]).stderr).toBe(`aar: ${leg}: not an AAR leg: it has no "passcode"\n`);
      const folder = runAar(['score', '--leg', dir]);
      expect([folder.status, folder.stderr]).toEqual([1, `aar: ${dir}: a folder, not a file\n`]);
      const answerFolder = path.join(dir, 'answers');
      mkdirSync(answerFolder);
      writeFileSync(leg, readFileSync(path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_001.json')));
      expect(runAar(['score', '--leg', leg, '--answer', answerFolder]).stderr).toBe(`aar: ${answerFolder}: a folder, not a file\n`);
    } finally {
      cleanup();
    }
  });

  test('aar verify JOB/job.json: a job folder is needed', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'job.json');
      writeFileSync(file, '{}');
      const r = runAar(['verify', file]);
      expect([r.status, r.stdout, r.stderr]).toEqual([1, '', `aar: ${file} is a file, not a job folder: give the folder that holds the job's trials (${dir})\n`]);
    } finally {
      cleanup();
    }
  });
});
