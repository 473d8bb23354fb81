import { readdirSync } from 'node:fs';
import path from 'node:path';
import { runAar } from '../../helpers/cli.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';

describeWithData('aar world synthesize (the compiled command, on the released legs)', () => {
  const tmp = tempDir('aar-world-');
  afterAll(() => tmp.cleanup());

  test('takes the leg filters: a store for the legs chosen only', () => {
    const r = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'easy'), '--level', 'easy', '--variant', 'aar-linear']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^synthetic world for 200 legs in .*: \d+ pages, \d+ tool responses, 0 conflicts/);
    const none = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'none'), '--id', 'no-such-leg']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no leg of the 1400 loaded matches the filters');
  });

  test('over all 1,400 legs no answer is kept-first: where legs disagree each gets its own, and a leg asking one call twice for two values gets both', () => {
    const r = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'all')]);
    expect(r.status).toBe(0);
    // before per-leg answers: "19 conflicts (first answer kept)" and 19 legs whose oracle read another leg's answer
    expect(r.stdout).toMatch(/, 0 conflicts \(first answer kept\), 19 per-leg answers \(17 where a leg disagrees with the shared answer, 2 holding two answers one leg needs\)/);
    expect(r.stdout).toMatch(/^2 legs ask one call twice on their golden path expecting two values; their answer holds both, one per line: aar-dag\/extreme\/sample_209, aar-dag\/extreme\/sample_220$/m);
    expect(readdirSync(path.join(tmp.dir, 'all', 'per-leg'))).toHaveLength(19);
  });
});
