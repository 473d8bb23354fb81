import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readOptionalText } from '../../../trial/folder.js';
import { REFERENCE_FIELDS, type ReferenceFields } from '../scoring/reference.js';
import { referenceOnly, scoreTrial } from '../scoring/score.js';

/**
 * A trial folder as the reference Harbor adapter leaves it: the container's /app and /tests, and the
 * verifier's output.
 *
 *   <trial>/app/answer.txt          the agent's answer (may be missing)
 *   <trial>/app/tool_log.jsonl      the tool log tools.py wrote (may be missing)
 *   <trial>/tests/trail.json        the leg
 *   <trial>/tests/expected_answer.txt   the passcode (optional; checked against the leg's)
 *   <trial>/verifier/reward.json    what the reference verifier wrote (optional)
 */
export const HARBOR_FILES = {
  answer: path.join('app', 'answer.txt'),
  toolLog: path.join('app', 'tool_log.jsonl'),
  trail: path.join('tests', 'trail.json'),
  expected: path.join('tests', 'expected_answer.txt'),
  reward: path.join('verifier', 'reward.json'),
} as const;

/** Folders under dir (dir included) holding tests/trail.json, sorted; hidden folders are skipped. */
export function findHarborTrials(dir: string, depth = 4): string[] {
  if (!existsSync(dir)) throw new Error(`${dir}: no such folder`);
  if (existsSync(path.join(dir, HARBOR_FILES.trail))) return [dir];
  if (depth === 0) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'app' && e.name !== 'tests')
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => findHarborTrials(path.join(dir, e.name), depth - 1));
}

export interface FieldDifference {
  field: string;
  ours: unknown;
  stored: unknown;
}

export interface HarborTrialCheck {
  dir: string;
  /** Our reference-compatible fields for the folder's files. */
  fields: ReferenceFields;
  /** Null when the folder has no verifier/reward.json. */
  differences: FieldDifference[] | null;
  /** tests/expected_answer.txt disagrees with the leg's passcode (the reference trusts the file). */
  expectedMismatch: string | null;
}

/** JSON values as the reference writes them compare equal when Python's 1.0 is JavaScript's 1. */
const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Re-scores one Harbor-layout trial folder from its files and compares with its stored reward.json. */
export function checkHarborTrial(dir: string): HarborTrialCheck {
  const trailFile = path.join(dir, HARBOR_FILES.trail);
  const trail = readOptionalText(trailFile);
  if (trail === null) throw new Error(`${trailFile}: missing`);
  let fields: ReferenceFields;
  try {
    fields = referenceOnly(scoreTrial(trail, readOptionalText(path.join(dir, HARBOR_FILES.answer)), { file: path.join(dir, HARBOR_FILES.toolLog) }));
  } catch (error) {
    throw new Error(`${trailFile}: ${(error as Error).message}`);
  }
  const expectedText = readOptionalText(path.join(dir, HARBOR_FILES.expected));
  const expected = expectedText === null ? null : expectedText.trim();
  const expectedMismatch = expected !== null && expected !== fields.expected_answer ? `${HARBOR_FILES.expected} says ${JSON.stringify(expected)}, the leg's passcode is ${fields.expected_answer}` : null;

  const rewardFile = path.join(dir, HARBOR_FILES.reward);
  if (!existsSync(rewardFile)) return { dir, fields, differences: null, expectedMismatch };
  let stored: Record<string, unknown>;
  try {
    const raw: unknown = JSON.parse(readFileSync(rewardFile, 'utf8'));
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('expected a JSON object');
    stored = raw as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${rewardFile}: ${(error as Error).message}`);
  }
  const differences = REFERENCE_FIELDS.filter((f) => !sameValue(fields[f], stored[f])).map((f) => ({ field: f, ours: fields[f], stored: stored[f] }));
  return { dir, fields, differences, expectedMismatch };
}

export interface HarborVerifySummary {
  trials: number;
  withReward: number;
  matching: number;
  differing: HarborTrialCheck[];
  expectedMismatches: HarborTrialCheck[];
  /** Folders that could not be scored; each message names the file. */
  failures: string[];
}

/** Re-verifies every Harbor-layout trial folder under dir. */
export function verifyHarborDir(dir: string): HarborVerifySummary {
  const summary: HarborVerifySummary = { trials: 0, withReward: 0, matching: 0, differing: [], expectedMismatches: [], failures: [] };
  for (const trial of findHarborTrials(dir)) {
    summary.trials++;
    try {
      const check = checkHarborTrial(trial);
      if (check.expectedMismatch) summary.expectedMismatches.push(check);
      if (check.differences === null) continue;
      summary.withReward++;
      if (check.differences.length) summary.differing.push(check);
      else summary.matching++;
    } catch (error) {
      summary.failures.push((error as Error).message);
    }
  }
  return summary;
}
