import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { referenceOnly, scoreToJson, scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { AAR_DATA_DIR, describeWithData, REPO_ROOT } from '../../../helpers/data.js';

/**
 * Cases made from real legs, with the reward.json the reference verifier (AAR Harbor adapter,
 * tests/verify.py) wrote for each: see test/fixtures/reference/README.md.
 */
interface ReferenceCase {
  id: string;
  leg: string;
  answer: string | null;
  tool_log: string | null;
  expected_json: string;
  expected: Record<string, unknown>;
}

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'reference');
const cases: ReferenceCase[] = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .flatMap((f) => readFileSync(path.join(FIXTURES, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ReferenceCase));

const legTexts = new Map<string, string>();
const legText = (rel: string): string => {
  let text = legTexts.get(rel);
  if (text === undefined) legTexts.set(rel, (text = readFileSync(path.join(AAR_DATA_DIR, rel), 'utf8')));
  return text;
};

describeWithData('reference-compatible fields equal what the reference verifier wrote', () => {
  test('the fixture holds several hundred cases', () => {
    expect(cases.length).toBeGreaterThan(500);
  });

  test.each(cases.map((c) => [c.id, c]))('%s', (_id, c) => {
    const score = scoreTrial(legText(c.leg), c.answer, c.tool_log);
    expect(referenceOnly(score)).toEqual(c.expected);
    // byte for byte: Python's json.dump(reward, f, indent=2)
    expect(scoreToJson(referenceOnly(score))).toBe(c.expected_json + '\n');
  });
});
