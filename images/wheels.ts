import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/**
 * Python wheels an image layer installs, downloaded on the host once (pip, from PyPI or PIP_INDEX_URL)
 * and kept in a cache folder, so rebuilding the layer needs no network: its Dockerfile installs them
 * with `pip install --no-index --find-links`. A layer asks for them with the build argument
 * PIP_REQUIREMENTS (space-separated pinned requirements); the wheels go into its context under wheels/.
 */

/** The build argument naming the requirements whose wheels go into a layer's context. */
export const PIP_REQUIREMENTS_ARG = 'PIP_REQUIREMENTS';

/** pip itself, run from its wheel inside the image (Debian's python3 has no pip nor ensurepip). */
export const PIP_WHEEL = 'pip==24.2';

/** The Python of the trial base image (Debian bookworm) the wheels are chosen for. */
const TARGET = ['--python-version', '3.11', '--implementation', 'cp', '--abi', 'cp311'];
/** glibc 2.36 (bookworm) runs every manylinux wheel up to 2.36; pip needs each tag listed. */
const PLATFORMS = [
  ...Array.from({ length: 32 }, (_, i) => `manylinux_2_${36 - i}_x86_64`),
  'manylinux2014_x86_64', 'manylinux2010_x86_64', 'manylinux1_x86_64', 'linux_x86_64',
].flatMap((p) => ['--platform', p]);

/** The cache: AAR_WHEEL_CACHE, else $XDG_CACHE_HOME/aar/wheels, else ~/.cache/aar/wheels. */
export function wheelCacheDir(): string {
  if (process.env.AAR_WHEEL_CACHE) return path.resolve(process.env.AAR_WHEEL_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aar', 'wheels');
}

const COMPLETE = 'requirements.txt';

/** The cache folder of one set of requirements: a readable name and a hash of the exact set. */
export function wheelFolder(requirements: readonly string[], cacheDir = wheelCacheDir()): string {
  const sorted = [...requirements].sort();
  const slug = sorted[0].replace(/[^A-Za-z0-9._=-]/g, '_').slice(0, 60);
  return path.join(cacheDir, `${slug}-${createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 10)}`);
}

/**
 * The wheels of these requirements (and all they depend on, plus pip's own), from the cache or
 * downloaded into it; a download that fails throws pip's own error (naming the dependency it could
 * not have) and leaves the cache as it was.
 */
export async function cachedWheels(requirements: readonly string[], log: (line: string) => void = () => {}, cacheDir = wheelCacheDir()): Promise<Record<string, Buffer>> {
  const all = [...requirements, PIP_WHEEL];
  const folder = wheelFolder(all, cacheDir);
  if (!existsSync(path.join(folder, COMPLETE))) {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${folder}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    log(`downloading the wheels of ${requirements.join(' ')} into ${folder} (once: later builds use the cache)`);
    const pip = await execa('python3', ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-cache-dir', '--only-binary=:all:', ...TARGET, ...PLATFORMS, '-d', partial, ...all], { all: true, reject: false });
    if (pip.exitCode !== 0) {
      rmSync(partial, { recursive: true, force: true });
      const errors = (pip.all ?? '').split('\n').filter((l) => /^ERROR/.test(l));
      throw new Error(`cannot download the wheels of ${requirements.join(' ')}: ${errors.join(' ') || (pip.all ?? '').split('\n').slice(-3).join(' ') || pip.shortMessage}`);
    }
    writeFileSync(path.join(partial, COMPLETE), `${all.join('\n')}\n`);
    rmSync(folder, { recursive: true, force: true });
    renameSync(partial, folder);
  }
  const files: Record<string, Buffer> = {};
  for (const name of readdirSync(folder).sort()) if (name.endsWith('.whl')) files[`wheels/${name}`] = readFileSync(path.join(folder, name));
  return files;
}
