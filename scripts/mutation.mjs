/**
 * `npm run test:mutation`: StrykerJS, installed on first use into a user cache (pinned, with the TypeScript
 * this package builds with) rather than as a dev dependency: 79 packages and 37 MB that only a mutation run
 * needs. Arguments go to `stryker run` (e.g. `-- --force`, `-- --dryRunOnly`).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const STRYKER = '9.6.1';
const typescript = createRequire(import.meta.url)('typescript/package.json').version;
const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
const dir = path.join(cache, 'aar', `stryker-${STRYKER}-ts-${typescript}`);
const bin = path.join(dir, 'node_modules', '.bin', 'stryker');

if (!existsSync(bin)) {
  mkdirSync(dir, { recursive: true });
  console.log(`test:mutation: installing StrykerJS ${STRYKER} into ${dir} (once)`);
  const packages = ['core', 'jest-runner', 'typescript-checker'].map((p) => `@stryker-mutator/${p}@${STRYKER}`);
  await execa('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', ...packages, `typescript@${typescript}`], { stdio: 'inherit' });
}
const run = await execa(bin, ['run', ...process.argv.slice(2)], { stdio: 'inherit', reject: false });
process.exitCode = run.exitCode ?? 1;
