import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { dockerAvailable } from '../../common/docker.js';
import { REPO_ROOT } from '../helpers/data.js';

const CAN_RUN = process.getuid?.() === 0 && (await dockerAvailable());
if (!CAN_RUN) console.warn('docker-up test skipped: it needs root and a running engine');
jest.setTimeout(300_000);

describe('images/docker-up.sh', () => {
  (CAN_RUN ? test : test.skip)('installs debootstrap (which its own hint sends users to) even when an engine already answers', () => {
    // /usr/sbin (where debootstrap lives) off the PATH: the script sees a machine without it.
    const r = spawnSync('bash', [path.join(REPO_ROOT, 'images', 'docker-up.sh')], { env: { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin' }, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('docker-up: installing debootstrap\ndocker-up: an engine is already running\n');
    expect(r.status).toBe(0);
    expect(spawnSync('dpkg-query', ['-W', '-f', '${Status}', 'debootstrap'], { encoding: 'utf8' }).stdout).toBe('install ok installed');
  });
});
