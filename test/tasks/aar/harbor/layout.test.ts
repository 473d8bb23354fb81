import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../../bench/synthetic-trials.js';
import { checkHarborTrial, findHarborTrials, verifyHarborDir } from '../../../../tasks/aar/harbor/layout.js';
import { loadLegs } from '../../../../tasks/aar/load.js';
import { referenceOnly, scoreToJson, type TrialScore } from '../../../../tasks/aar/scoring/score.js';
import { listTrialDirs } from '../../../../trial/folder.js';
import { runAar } from '../../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../../helpers/data.js';

/**
 * Harbor-layout folders made from real trial folders: app/ and tests/ as the reference adapter's container
 * holds them, verifier/reward.json with the reference fields written as Python's json.dump writes them.
 */
async function harborDir(root: string): Promise<string[]> {
  const job = path.join(root, 'job');
  const { legs } = await loadLegs(EXAMPLES_DIR);
  writeSyntheticJob(job, [...legs, ...legs.map((l) => ({ ...l, id: `${l.id}-b` }))], 5, { withScores: true });
  const out = path.join(root, 'harbor', 'jobs', '2026-11-26');
  return listTrialDirs(job).map((dir, i) => {
    const trial = path.join(out, `trial-${i}`);
    mkdirSync(path.join(trial, 'app'), { recursive: true });
    mkdirSync(path.join(trial, 'tests'), { recursive: true });
    mkdirSync(path.join(trial, 'verifier'), { recursive: true });
    cpSync(path.join(dir, 'leg.json'), path.join(trial, 'tests', 'trail.json'));
    const leg = JSON.parse(readFileSync(path.join(dir, 'leg.json'), 'utf8')) as { passcode: number };
    writeFileSync(path.join(trial, 'tests', 'expected_answer.txt'), String(leg.passcode));
    for (const f of ['answer.txt', 'tool_log.jsonl']) {
      try {
        cpSync(path.join(dir, f), path.join(trial, 'app', f));
      } catch {
        // the agent wrote no answer: the folder has none either
      }
    }
    const score = JSON.parse(readFileSync(path.join(dir, 'score.json'), 'utf8')) as TrialScore;
    writeFileSync(path.join(trial, 'verifier', 'reward.json'), scoreToJson(referenceOnly(score)));
    return trial;
  });
}

describe('re-verifying folders in the reference Harbor layout', () => {
  test('every trial found and matching; an edited reward.json is reported field by field', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const trials = await harborDir(dir);
      expect(findHarborTrials(path.join(dir, 'harbor'))).toEqual([...trials].sort());
      expect(verifyHarborDir(path.join(dir, 'harbor'))).toMatchObject({ trials: 6, withReward: 6, matching: 6, differing: [], failures: [] });

      const reward = path.join(trials[1], 'verifier', 'reward.json');
      const stored = JSON.parse(readFileSync(reward, 'utf8'));
      writeFileSync(reward, JSON.stringify({ ...stored, right_tool_calls: stored.right_tool_calls + 2, status: 'correct' }, null, 2));
      const check = checkHarborTrial(trials[1]);
      expect(check.differences).toEqual(
        expect.arrayContaining([
          { field: 'right_tool_calls', ours: stored.right_tool_calls, stored: stored.right_tool_calls + 2 },
          ...(stored.status === 'correct' ? [] : [{ field: 'status', ours: stored.status, stored: 'correct' }]),
        ]),
      );
      rmSync(path.join(trials[2], 'verifier'), { recursive: true });
      writeFileSync(path.join(trials[3], 'tests', 'expected_answer.txt'), 'x');
      const summary = verifyHarborDir(path.join(dir, 'harbor'));
      expect(summary).toMatchObject({ trials: 6, withReward: 5, matching: 4 });
      expect(summary.differing.map((c) => c.dir)).toEqual([trials[1]]);
      expect(summary.expectedMismatches.map((c) => c.expectedMismatch)).toEqual([expect.stringMatching(/^tests\/expected_answer.txt says "x", the leg's passcode is \d$/)]);

      writeFileSync(path.join(trials[4], 'tests', 'trail.json'), '{"stops": [');
      const broken = verifyHarborDir(path.join(dir, 'harbor'));
      expect(broken.failures).toEqual([expect.stringContaining(path.join(trials[4], 'tests', 'trail.json'))]);

      const cli = runAar(['verify', '--layout', 'harbor', path.join(dir, 'harbor')]);
      expect(cli.status).toBe(1);
      expect(cli.stdout.split('\n')[0]).toBe('6 Harbor trial folders: 4 with verifier/reward.json, 3 match our reference-compatible fields, 1 differ, 1 unreadable');
      expect(cli.stdout).toContain(`    right_tool_calls: ours ${stored.right_tool_calls}, reward.json ${stored.right_tool_calls + 2}`);
      expect(runAar(['verify', '--layout', 'other', dir]).stderr.trim()).toBe('aar: --layout: expected job or harbor, got other');
    } finally {
      cleanup();
    }
  });

  test('a single trial folder is a batch of one; a folder without any is an empty batch', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const [first] = await harborDir(dir);
      expect(verifyHarborDir(first)).toMatchObject({ trials: 1, matching: 1 });
      expect(verifyHarborDir(path.join(dir, 'job'))).toMatchObject({ trials: 0, matching: 0 });
      expect(() => verifyHarborDir(path.join(dir, 'absent'))).toThrow(/absent: no such folder/);
    } finally {
      cleanup();
    }
  });
});
