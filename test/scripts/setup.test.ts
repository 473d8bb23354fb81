import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, tempDir } from '../helpers/data.js';

/** `npm start`'s prestart: a checkout whose build is newer than every source starts without building. */
describe('scripts/build-if-stale.mjs', () => {
  test('builds when there is no build or a source is newer, and not otherwise', () => {
    const { dir, cleanup } = tempDir();
    try {
      mkdirSync(path.join(dir, 'scripts'));
      mkdirSync(path.join(dir, 'harness'));
      mkdirSync(path.join(dir, 'dist'));
      copyFileSync(path.join(REPO_ROOT, 'scripts', 'build-if-stale.mjs'), path.join(dir, 'scripts', 'build-if-stale.mjs'));
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      const build = `node -e "require('fs').appendFileSync('built.txt', 'x')" && node scripts/build-if-stale.mjs --stamp`;
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fake', private: true, scripts: { build } }));
      const source = path.join(dir, 'harness', 'a.ts');
      writeFileSync(source, 'export const a = 1;\n');
      const old = new Date(Date.now() - 60_000);
      for (const f of ['package.json', 'scripts/build-if-stale.mjs', 'harness/a.ts']) utimesSync(path.join(dir, f), old, old);
      const builds = (): number => readFileSync(path.join(dir, 'built.txt'), 'utf8').length;
      const prestart = () => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: dir, encoding: 'utf8' });

      const first = prestart();
      expect(first).toMatchObject({ status: 0, stderr: expect.stringContaining('no build yet: building') });
      expect(builds()).toBe(1);
      const stamp = path.join(dir, 'dist', '.build-stamp');
      utimesSync(stamp, new Date(old.getTime() + 10_000), new Date(old.getTime() + 10_000));
      expect(prestart()).toMatchObject({ status: 0, stdout: '', stderr: '' });
      expect(builds()).toBe(1);
      utimesSync(source, new Date(old.getTime() + 20_000), new Date(old.getTime() + 20_000));
      expect(prestart()).toMatchObject({ status: 0, stderr: expect.stringContaining('sources changed since the last build') });
      expect(builds()).toBe(2);
      expect(prestart().stderr).toBe('');
      expect(builds()).toBe(2);
    } finally {
      cleanup();
    }
  });

  test('package.json: prestart is the stale check and build records its stamp', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(scripts.prestart).toBe('node scripts/build-if-stale.mjs');
    expect(scripts.build).toMatch(/&& node scripts\/build-if-stale\.mjs --stamp$/);
    expect(execFileSync(path.join(REPO_ROOT, 'aar'), ['--version'], { cwd: '/', encoding: 'utf8' })).toBe(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version + '\n');
  });
});

/** npm 11 runs no dependency's install script unless package.json's allowScripts approves it: each one is decided. */
describe('package.json allowScripts', () => {
  test('every package of the lockfile with an install script has a recorded decision', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8'));
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, p]) => p.hasInstallScript)
      .map(([where]) => where.split('node_modules/').at(-1)!);
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect([name, typeof pkg.allowScripts?.[name]]).toEqual([name, 'boolean']);
    // The build and the tests need these two: esbuild's and swc's checks of their native binaries.
    expect(pkg.allowScripts).toMatchObject({ esbuild: true, '@swc/core': true });
  });
});
