import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runFlagOverrides, type RunFlags } from '../../../harness/config/flags.js';
import { configFromFlags, loadJobConfig } from '../../../harness/config/load.js';
import { InputError } from '../../../tasks/problems.js';
import { runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../helpers/data.js';

const problemsOf = (make: () => unknown): string[] => {
  try {
    make();
  } catch (error) {
    if (error instanceof InputError) return error.message.split('\n');
    throw error;
  }
  return [];
};

const FLAGS: RunFlags = {
  agents: [{ name: 'codex', model: 'gpt-5.4' }, { name: 'oracle' }, { name: 'mini-swe-agent', model: 'gpt-5.4-mini' }],
  path: [EXAMPLES_DIR],
  variant: ['examples-dag'],
  level: ['easy', 'medium'],
  id: ['**/sample_00*'],
  sample: '2',
  seed: '7',
  limit: '1',
  attempts: '3',
  concurrency: '5',
  timeout: '90',
  toolsMode: 'replay',
  toolsStore: path.join(REPO_ROOT, 'tools', 'stores', 'examples'),
  name: 'flagged',
  jobsDir: '/tmp/jobs-elsewhere',
};

const YAML = `
name: flagged
output: /tmp/jobs-elsewhere
tasks:
  path: ${EXAMPLES_DIR}
  variants: [examples-dag]
  levels: [easy, medium]
  ids: ['**/sample_00*']
  sample: { n: 2, seed: 7 }
  limit: 1
agents:
  - { name: codex, model: gpt-5.4 }
  - { name: oracle }
  - { name: mini-swe-agent, model: gpt-5.4-mini }
attempts: 3
concurrency: 5
timeout_s: 90
tools:
  mode: replay
  store: ${path.join(REPO_ROOT, 'tools', 'stores', 'examples')}
`;

describe('aar run flags', () => {
  const tmp = tempDir('aar-flags-');
  afterAll(() => tmp.cleanup());

  test('flags alone make the same config as the YAML file that says the same', () => {
    const file = path.join(tmp.dir, 'same.yaml');
    writeFileSync(file, YAML);
    expect(configFromFlags(runFlagOverrides(FLAGS, { withFile: false })).config).toEqual(loadJobConfig(file).config);
  });

  test('flags over a file replace the keys they name and keep the rest', () => {
    const file = path.join(tmp.dir, 'base.yaml');
    writeFileSync(file, 'name: base\ntasks:\n  path: legs\n  levels: [hard]\nagents:\n  - name: random\nattempts: 2\ntimeout_s: 300\nbudget:\n  steps: 12\n');
    const { config, resolve } = loadJobConfig(file, runFlagOverrides({ agents: [{ name: 'oracle' }], attempts: '4', path: ['here'] }, { withFile: true, cwd: '/somewhere' }));
    expect(config).toMatchObject({ name: 'base', attempts: 4, timeout_s: 300, budget: { steps: 12 }, agents: [{ name: 'oracle' }], tasks: { path: '/somewhere/here', levels: ['hard'] } });
    // A path given as a flag is relative to the working directory; the file's own paths stay relative to it.
    expect(resolve(config.tasks.path as string)).toBe('/somewhere/here');
  });

  test('a bad flag value is a one-line error naming the flag', () => {
    const bad = (flags: RunFlags): string[] => problemsOf(() => configFromFlags(runFlagOverrides({ agents: [{ name: 'oracle' }], path: ['x'], ...flags }, { withFile: false })));
    expect(bad({ attempts: '0' })).toEqual([expect.stringMatching(/^command line: --attempts: .*>0/)]);
    expect(bad({ attempts: 'two' })).toEqual([expect.stringMatching(/^command line: --attempts: .*expected number/)]);
    expect(bad({ level: ['hardest'] })).toEqual([expect.stringMatching(/^command line: --level: /)]);
    expect(bad({ toolsMode: 'fake' })).toEqual([expect.stringMatching(/^command line: --tools-mode: /)]);
    expect(bad({ sample: '-1' })).toEqual([expect.stringMatching(/^command line: --sample: /)]);
    expect(bad({ seed: '3' })).toEqual(['command line: --seed: seeds --sample N: give both']);
    expect(bad({ name: 'a b' })).toEqual([expect.stringMatching(/^command line: --name: use letters/)]);
    expect(problemsOf(() => configFromFlags(runFlagOverrides({ agents: [{ name: 'oracle' }] }, { withFile: false })))).toEqual([expect.stringMatching(/^command line: --path: /)]);
    expect(problemsOf(() => configFromFlags(runFlagOverrides({ path: ['x'] }, { withFile: false })))).toEqual([expect.stringMatching(/^command line: --agent: /)]);
  });

  test('a problem in the file still names the file, line and key when flags are given too', () => {
    const file = path.join(tmp.dir, 'broken.yaml');
    writeFileSync(file, 'tasks:\n  path: legs\nagents:\n  - name: oracle\ntimeout_s: -1\n');
    expect(problemsOf(() => loadJobConfig(file, runFlagOverrides({ attempts: '2' }, { withFile: true })))).toEqual([`${file}:5:12: timeout_s: Too small: expected number to be >0`]);
  });

  test('as a process: --model pairs with the --agent before it; a --model with no --agent is an error', () => {
    const plan = runAar(['plan', '--agent', 'oracle', '--agent', 'codex', '--model', 'gpt-5.4', '--path', 'tasks/examples', '--tools-mode', 'replay', '--tools-store', 'tools/stores/examples', '--jobs-dir', path.join(tmp.dir, 'jobs')]);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toMatch(/trials: 6 planned \(2 agents x 3 legs x 1 attempt\)/);
    expect(plan.stdout).toMatch(/^ {2}oracle\s+3 to run/m);
    expect(plan.stdout).toMatch(/^ {2}codex@gpt-5\.4\s+3 to run/m);
    const orphan = runAar(['plan', '--model', 'gpt-5.4', '--agent', 'codex', '--path', 'tasks/examples']);
    expect(orphan.status).not.toBe(0);
    expect(orphan.stderr).toContain('--model must follow the --agent it belongs to');
    const bad = runAar(['run', '--agent', 'oracle', '--path', 'tasks/examples', '--concurrency', '0']);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^aar: command line: --concurrency: /)]);
  });
});
