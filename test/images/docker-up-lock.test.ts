import { jest } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { dockerAvailable } from '../../common/docker.js';
import { REPO_ROOT } from '../helpers/data.js';

const CAN_RUN = process.getuid?.() === 0 && (await dockerAvailable());
if (!CAN_RUN) console.warn('docker-up lock test skipped: it needs root and a running engine');
jest.setTimeout(300_000);

/** Holds apt's and dpkg's locks (fcntl locks, as apt takes them) for `seconds`, as an unattended upgrade would. */
async function holdPackageLocks(seconds: number): Promise<ChildProcess> {
  const script = `import fcntl, sys, time
held = []
for name in ['/var/lib/apt/lists/lock', '/var/lib/dpkg/lock-frontend', '/var/lib/dpkg/lock']:
    f = open(name, 'a')
    fcntl.lockf(f, fcntl.LOCK_EX)
    held.append(f)
print('held', flush=True)
time.sleep(${seconds})`;
  const child = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return child;
}

const dockerUp = (env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string; seconds: number }>((resolve) => {
    const started = Date.now();
    // /usr/sbin (where debootstrap lives) off the PATH: the script sees a machine without it, so it runs apt-get.
    const child = spawn('bash', [path.join(REPO_ROOT, 'images', 'docker-up.sh')], { env: { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr, seconds: (Date.now() - started) / 1000 }));
  });

describe('images/docker-up.sh and the package lock', () => {
  (CAN_RUN ? test : test.skip)('waits, saying so, while another apt holds the lock, then installs', async () => {
    const holder = await holdPackageLocks(6);
    try {
      const r = await dockerUp({ DOCKER_UP_LOCK_WAIT: '120' });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('docker-up: installing debootstrap\ndocker-up: another apt or dpkg holds the package lock; waiting for it (up to 120 s)\ndocker-up: an engine is already running\n');
      expect(r.status).toBe(0);
      expect(r.seconds).toBeGreaterThanOrEqual(4);
    } finally {
      holder.kill();
    }
  });

  (CAN_RUN ? test : test.skip)('gives up after the bound with one line, not apt exit status 100', async () => {
    const holder = await holdPackageLocks(60);
    try {
      const r = await dockerUp({ DOCKER_UP_LOCK_WAIT: '4' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('docker-up: installing debootstrap\ndocker-up: another apt or dpkg holds the package lock; waiting for it (up to 4 s)\n');
      expect(r.stderr).toMatch(/^docker-up: the package lock is still held after 4 s \(held by process \d+.*\); try again when it is done, or set DOCKER_UP_LOCK_WAIT\n$/);
    } finally {
      holder.kill();
    }
    expect(spawnSync('dpkg-query', ['-W', '-f', '${Status}', 'debootstrap'], { encoding: 'utf8' }).stdout).toBe('install ok installed');
  });
});
