import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadLegs } from '../../../tasks/aar/load.js';
import { jobFoldersIn } from '../../../verifier/html/job-list.js';
import { runAar } from '../../helpers/cli.js';
import { writeCraftedJob } from '../../helpers/crafted-jobs.js';
import { EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../helpers/data.js';

/** Issue 35, item 8: the small inconsistencies a new user meets on the first day. */
describe('the first day: small inconsistencies', () => {
  const tmp = tempDir('aar-first-day-');
  afterAll(() => tmp.cleanup());
  const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  test('`aar version` prints the version, as `aar --version` does', () => {
    expect(runAar(['version'])).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
    expect(runAar(['--version']).stdout).toBe(`${version}\n`);
  });

  test('`--format json` where every other command takes it (`--json` still works)', () => {
    const tasks = runAar(['tasks', 'list', '--format', 'json']);
    expect(tasks.status).toBe(0);
    const listed = JSON.parse(tasks.stdout) as { id: string }[];
    expect(listed.map((l) => l.id)).toHaveLength(3);
    expect(runAar(['tasks', 'list', '--json']).stdout).toBe(tasks.stdout);
    expect(JSON.parse(runAar(['tools', 'list', '--format', 'json']).stdout)).toHaveLength(19);
    expect(runAar(['tasks', 'show', 'examples-linear/easy/sample_001', '--format', 'json']).stdout).toBe(readFileSync(path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_001.json'), 'utf8'));
    expect(runAar(['tasks', 'list', '--format', 'yaml']).stderr).toBe('aar: --format: expected text or json, got yaml\n');
  });

  test('a path that is not there: one `aar:` line, nothing on standard output', () => {
    const r = runAar(['tasks', 'list', '/nonexistent']);
    expect(r).toMatchObject({ status: 1, stdout: '', stderr: 'aar: /nonexistent: no such file or folder\n' });
  });

  test('compare: a power figure that cannot be measured says why; different leg sets are refused as such, not as unequal budgets', async () => {
    const { legs } = await loadLegs(EXAMPLES_DIR);
    const job = path.join(tmp.dir, 'every-leg-alike');
    writeCraftedJob(job, legs, 'a', 1, () => ({ fa: 0 }));
    writeCraftedJob(job, legs, 'b', 1, () => ({ fa: 1 }));
    const alike = runAar(['compare', job]);
    expect(alike.status).toBe(0);
    // Every leg differs the same way: no power figure, and the note says when the column is empty and why.
    expect(alike.stdout).toContain('Empty where no difference reaches 80% (too few legs, or the two never differ)');
    expect(alike.stdout).not.toMatch(/: - pp on/);

    const fewer = path.join(tmp.dir, 'fewer-legs');
    writeCraftedJob(fewer, legs.slice(0, 2), 'b', 1, () => ({ fa: 1 }));
    const refused = runAar(['compare', `${job}:a`, `${fewer}:b`]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^aar: the configurations ran on different legs \(their budgets are equal\); compare them on the legs both ran with --allow-unequal/);
    expect(refused.stderr).toContain(`legs (set): every-leg-alike:a = 3 legs, 2 shared; fewer-legs:b = 2 legs, 2 shared, 1 of the others' missing (e.g. ${legs[2]!.id})`);
    expect(refused.stderr).not.toContain('did not run under equal budgets');
  });

  test('a folder of links to job folders is a folder of jobs; the screenshot script says a bad folder in one line', async () => {
    const { legs } = await loadLegs(EXAMPLES_DIR);
    const real = path.join(tmp.dir, 'real-jobs', 'one');
    writeCraftedJob(real, legs, 'a', 1, () => ({ fa: 1 }));
    const links = path.join(tmp.dir, 'links');
    mkdirSync(links);
    symlinkSync(real, path.join(links, 'one'));
    expect(jobFoldersIn(links)).toEqual([path.join(links, 'one')]);
    const empty = path.join(tmp.dir, 'empty');
    mkdirSync(empty);
    const script = spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'bench', 'viewer-screenshots.js'), empty, path.join(tmp.dir, 'shots')], { encoding: 'utf8' });
    expect(script.status).toBe(1);
    expect(script.stderr).toBe(`viewer screenshots: ${empty}: not a job folder nor a folder of jobs (no job.json or trial folder in it or in its sub-folders)\n`);
  });
});
