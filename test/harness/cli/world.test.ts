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

  test('over all 1,400 legs the legs whose golden path reads another leg\'s answer are named (the oracle can fail on them)', () => {
    const r = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'all')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/, 19 conflicts \(first answer kept\)/);
    expect(r.stdout).toMatch(/^19 legs read another leg's answer on their golden path \(their oracle can fail on this store\): aar-dag\/extreme\/sample_131, /m);
  });
});
