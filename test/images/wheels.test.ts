import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedWheels, PIP_WHEEL, wheelFolder } from '../../images/wheels.js';
import { tempDir } from '../helpers/data.js';

/** The wheels of a layer's PIP_REQUIREMENTS: downloaded once on the host, then served from the cache with no pip run. */

const withEnv = async <T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> => {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
};

describe('the wheel cache of image layers', () => {
  const tmp = tempDir('aar-wheels-');
  afterAll(() => tmp.cleanup());

  test('a complete cache folder is used as it is: no pip, no network (pip is not even on the PATH)', async () => {
    const cache = path.join(tmp.dir, 'cache');
    const folder = wheelFolder(['demo==1.0', PIP_WHEEL], cache);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'demo-1.0-py3-none-any.whl'), 'demo wheel');
    writeFileSync(path.join(folder, 'pip-24.2-py3-none-any.whl'), 'pip wheel');
    writeFileSync(path.join(folder, 'requirements.txt'), `demo==1.0\n${PIP_WHEEL}\n`);
    const files = await withEnv({ PATH: path.join(tmp.dir, 'no-bin') }, () => cachedWheels(['demo==1.0'], () => {}, cache));
    expect(Object.keys(files)).toEqual(['wheels/demo-1.0-py3-none-any.whl', 'wheels/pip-24.2-py3-none-any.whl']);
    expect(files['wheels/demo-1.0-py3-none-any.whl'].toString()).toBe('demo wheel');
  });

  test('a requirement pip cannot have fails with pip\'s own error naming it, and leaves no cache folder behind', async () => {
    const cache = path.join(tmp.dir, 'offline');
    const links = path.join(tmp.dir, 'empty-index');
    mkdirSync(links, { recursive: true });
    // An index with nothing in it, on this machine: pip's answer is the one a registry without the package gives.
    const attempt = withEnv({ PIP_NO_INDEX: '1', PIP_FIND_LINKS: links, PIP_CONFIG_FILE: '/dev/null' }, () => cachedWheels(['aar-no-such-package==1.0'], () => {}, cache));
    await expect(attempt).rejects.toThrow(/^cannot download the wheels of aar-no-such-package==1\.0: ERROR: Could not find a version that satisfies the requirement aar-no-such-package==1\.0/);
    expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
  });
});
