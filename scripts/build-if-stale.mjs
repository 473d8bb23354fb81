// `npm start` runs this first: it builds (npm run build) only when a source is newer than the last build,
// so an up-to-date checkout starts at once. `--stamp` (the end of npm run build) records a finished build.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

if (process.argv.includes('--stamp')) {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}

/** What the build reads: tsconfig's sources, the bundle step, the package and compiler settings. */
const SOURCE_DIRS = ['python', 'trial', 'tools', 'tasks', 'verifier', 'harness', 'images', 'bench'];
const SOURCE_FILES = ['index.ts', 'paths.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build-if-stale.mjs'];
const isSource = (name) => /\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(full));
    else if (entry.isFile() && isSource(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function newestSource() {
  let newest = 0;
  for (const file of SOURCE_FILES) if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  for (const dir of SOURCE_DIRS) if (existsSync(path.join(root, dir))) newest = Math.max(newest, newestUnder(path.join(root, dir)));
  return newest;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (built && newestSource() <= built) process.exit(0);
process.stderr.write(built ? 'sources changed since the last build: building (npm run build)\n' : 'no build yet: building (npm run build)\n');
const { exitCode } = await execa('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', reject: false });
process.exit(exitCode ?? 1);
