import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadLegFile, loadLegs } from '../../../tasks/aar/load.js';
import { formatProblem } from '../../../tasks/problems.js';
import { AAR_DATA_DIR, describeWithData, EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

const exampleText = readFileSync(path.join(EXAMPLES_DIR, 'examples-dag/medium/sample_002.json'), 'utf8');

function writeVariant(dir: string, name: string, edit: (leg: any) => void): string {
  const leg = JSON.parse(exampleText);
  edit(leg);
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(leg, null, 2));
  return file;
}

describe('loading legs', () => {
  test('the example legs load with stable ids', async () => {
    const { legs, problems } = await loadLegs(EXAMPLES_DIR);
    expect(problems).toEqual([]);
    expect(legs.map((l) => l.id)).toEqual([
      'examples-dag/medium/sample_002',
      'examples-linear/easy/sample_001',
      'examples-linear/easy/sample_003',
    ]);
    const types = new Set(legs.flatMap((l) => l.leg.stops.map((s) => s.stop_type)));
    expect([...types].sort()).toEqual(['compute', 'page', 'reason', 'tool']);
  });

  test('a file outside the <variant>/<level> layout gets an id from its content', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = writeVariant(dir, 'mine.json', () => {});
      const { legs } = loadLegFile(file);
      expect(legs[0].id).toBe('aar-dag/medium/mine');
      expect(legs[0].source.toString()).toContain('"trail_id"');
    } finally {
      cleanup();
    }
  });

  test('each malformed file gives one line per problem naming the file and the JSON path', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const bad = path.join(dir, 'bad');
      mkdirSync(bad);
      writeFileSync(path.join(bad, 'syntax.json'), '{\n  "trail_id": "x",\n  "stops": [1, 2,]\n}');
      writeVariant(bad, 'missing.json', (l) => delete l.riddle);
      writeVariant(bad, 'wrongtype.json', (l) => (l.stops[2].index = 'two'));
      writeVariant(bad, 'dangling.json', (l) => (l.stops[3].depends_on = [1, 42]));
      writeVariant(bad, 'cycle.json', (l) => (l.stops[1].depends_on = [4]));
      writeVariant(bad, 'passcode.json', (l) => (l.passcode = 12));
      const { legs, problems } = await loadLegs(bad);
      expect(legs).toEqual([]);
      const lines = problems.map(formatProblem);
      for (const line of lines) expect(line).not.toContain('\n');
      const byFile = (name: string) => lines.filter((l) => l.startsWith(path.join(bad, name) + ':'));
      expect(byFile('syntax.json')).toEqual([expect.stringMatching(/syntax\.json: invalid JSON at line 3 column \d+/)]);
      expect(byFile('missing.json')).toEqual([expect.stringMatching(/missing\.json: \$\.riddle: .*string/i)]);
      expect(byFile('wrongtype.json')).toEqual([expect.stringMatching(/wrongtype\.json: \$\.stops\[2\]\.index: .*number/i)]);
      expect(byFile('dangling.json')).toEqual([`${path.join(bad, 'dangling.json')}: $.stops[3].depends_on[1]: points to stop 42, which does not exist`]);
      expect(byFile('cycle.json')).toEqual([expect.stringMatching(/cycle\.json: \$\.stops\[\d\]\.depends_on: dependency cycle: (\d -> )+\d/)]);
      expect(byFile('passcode.json')).toEqual([expect.stringMatching(/passcode\.json: \$\.passcode: /)]);
    } finally {
      cleanup();
    }
  });

  test('a bad file does not stop the good ones from loading', async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeVariant(dir, 'good.json', () => {});
      writeFileSync(path.join(dir, 'broken.json'), 'not json');
      const { legs, problems } = await loadLegs(dir);
      expect(legs).toHaveLength(1);
      expect(problems).toHaveLength(1);
    } finally {
      cleanup();
    }
  });

  test('a path that does not exist is a problem, not a crash', async () => {
    const { problems } = await loadLegs('/nonexistent/legs');
    expect(problems.map(formatProblem)).toEqual(['/nonexistent/legs: no such file or folder']);
  });
});

describeWithData('the real AAR data', () => {
  test('all 1,400 legs load without a problem', async () => {
    const { legs, problems } = await loadLegs(AAR_DATA_DIR);
    expect(problems).toEqual([]);
    expect(legs).toHaveLength(1400);
    expect(legs.filter((l) => l.variant === 'aar-dag')).toHaveLength(600);
    expect(legs.filter((l) => l.variant === 'aar-linear')).toHaveLength(800);
    expect(legs[0].id).toBe('aar-dag/easy/sample_003');
    expect(new Set(legs.map((l) => l.id)).size).toBe(1400);
  });
});
