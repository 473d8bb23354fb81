import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { spawnSync } from 'node:child_process';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../helpers/data.js';

const STORE = path.join(REPO_ROOT, 'tools', 'stores', 'examples');
const LEG = path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_003.json');

/** The built CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it: stdout and stderr in one. */
function runAarOnTerminal(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; out: string } {
  const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, AAR_BIN, ...args].map(quote).join(' ');
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '', TERM: 'xterm', ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: r.stdout };
}
const COLOUR = /\x1b\[3\dm/;

/** What a new user meets first (issue 26): every mistake is one `aar:` line that says what to do. */
describe('aar: the first hour (the compiled command, run as a process)', () => {
  test('a mistyped command or option is one aar: line with the suggestion and where the help is', () => {
    expect(runAar(['verfy'])).toMatchObject({ status: 1, stdout: '', stderr: "aar: unknown command 'verfy' (did you mean verify?); see aar --help\n" });
    expect(runAar(['tasks', 'lst'])).toMatchObject({ status: 1, stderr: "aar: unknown command 'lst' (did you mean list?); see aar tasks --help\n" });
    expect(runAar(['tasks', 'list', '--bogus'])).toMatchObject({ status: 1, stderr: "aar: unknown option '--bogus'; see aar tasks list --help\n" });
    expect(runAar(['report'])).toMatchObject({ status: 1, stderr: "aar: missing required argument 'job-dir'; see aar report --help\n" });
    expect(runAar(['--version'])).toMatchObject({ status: 0, stderr: '' });
  });

  test('a file the command cannot write is named in one line, not a bare Node error', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const job = path.join(dir, 'job');
      writeSyntheticJob(job, (await loadLegs(EXAMPLES_DIR)).legs, 3, { withScores: true });
      for (const format of ['html', 'md']) {
        expect(runAar(['report', job, '--format', format, '--out', '/nonexistent/dir/r.html'])).toMatchObject({
          status: 1,
          stdout: '',
          stderr: 'aar: --out /nonexistent/dir/r.html: the folder /nonexistent/dir does not exist\n',
        });
      }
      const aFolder = path.join(dir, 'a-folder');
      mkdirSync(aFolder);
      expect(runAar(['report', job, '--out', aFolder])).toMatchObject({ status: 1, stderr: `aar: ${aFolder}: is a folder, not a file (opening it)\n` });
    } finally {
      cleanup();
    }
  });

  test('view and the HTML report refuse an empty or non-job folder; view --port shows its default once', () => {
    const { dir, cleanup } = tempDir();
    try {
      const empty = path.join(dir, 'empty');
      mkdirSync(empty);
      const other = path.join(dir, 'other');
      mkdirSync(other);
      writeFileSync(path.join(other, 'notes.txt'), 'not a job\n');
      for (const folder of [empty, other]) {
        expect(runAar(['report', folder, '--format', 'html'])).toMatchObject({ status: 1, stdout: '', stderr: `aar: ${folder}: not a job folder (no job.json and no trial folder holding a trial.json)\n` });
        // view also takes a folder of jobs (its job list), so it says that neither was found.
        expect(runAar(['view', folder])).toMatchObject({ status: 1, stdout: '', stderr: `aar: ${folder}: not a job folder nor a folder of jobs (no job.json or trial folder in it or in its sub-folders)\n` });
      }
      expect(runAar(['verify', '--layout', 'harbor', other])).toMatchObject({ status: 1, stdout: '', stderr: `aar: ${other}: no Harbor trial folder (none below holds tests/trail.json)\n` });
      const help = runAar(['view', '--help']).stdout;
      // The folder argument has its own default (jobs); the --port line names its default once.
      expect(help.split('\n').find((l) => l.includes('--port'))!.match(/default/g)).toHaveLength(1);
      expect(help).toContain('(default: any free one)');
    } finally {
      cleanup();
    }
  });

  test('an agent written as a bare name says how to write it', () => {
    const { dir, cleanup } = tempDir();
    try {
      const config = path.join(dir, 'job.yaml');
      writeFileSync(config, `tasks: {path: ${EXAMPLES_DIR}}\nagents:\n  - oracle\ntools: {mode: replay}\n`);
      expect(runAar(['plan', config])).toMatchObject({ status: 1, stderr: `aar: ${config}:3:5: agents[0]: an agent is a mapping, not a name: write \`- name: oracle\` (or \`{name: oracle}\`)\n` });
    } finally {
      cleanup();
    }
  });

  test('plan and run report in JSON (the library\'s shapes); a plan that would be refused exits non-zero', () => {
    const { dir, cleanup } = tempDir();
    try {
      const flags = ['--agent', 'oracle', '--path', LEG, '--tools-mode', 'replay', '--tools-store', STORE, '--jobs-dir', dir];
      const plan = runAar(['plan', ...flags, '--format', 'json']);
      expect(plan).toMatchObject({ status: 0, stderr: '' });
      expect(JSON.parse(plan.stdout)).toMatchObject({ job: 'job', jobDir: path.join(dir, 'job'), legs: 1, planned: 1, done: 0, toRun: 1, refusal: [], concurrency: { auto: true }, keys: [] });

      const run = runAar(['run', ...flags, '--format', 'json', '--progress', 'quiet']);
      expect(run.status).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.summary).toEqual({ jobDir: path.join(dir, 'job'), planned: 1, skipped: 0, ran: 1, infraErrors: 0, interrupted: false, leftoversRemoved: 0 });
      expect(out.report[0]).toMatchObject({ agent: 'oracle', variant: '*', level: '*', trials: 1, n: 1, fa: 1 });
      expect(out.report).toEqual(JSON.parse(runAar(['report', path.join(dir, 'job'), '--format', 'json']).stdout));

      const refused = runAar(['plan', ...flags, '--timeout', '60']);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toContain('refused: ');
      expect(refused.stderr).toBe(`aar: ${path.join(dir, 'job')}: a run would be refused (1 difference from its trials, listed under refused)\n`);
      const refusedJson = runAar(['plan', ...flags, '--timeout', '60', '--format', 'json']);
      expect(refusedJson.status).toBe(1);
      expect(JSON.parse(refusedJson.stdout).refusal).toEqual(['timeout_s: 600 -> 60']);
      expect(runAar(['plan', ...flags, '--format', 'yaml'])).toMatchObject({ status: 1, stdout: '', stderr: 'aar: --format: expected one of text, json, got yaml\n' });
    } finally {
      cleanup();
    }
  });

  test('flags-only runs: the missing-keys error says how to replay; concurrency follows the machine and the plan says why; --memory and --cpus', () => {
    const { dir, cleanup } = tempDir();
    try {
      const live = runAar(['run', '--agent', 'oracle', '--path', 'tasks/examples', '--jobs-dir', dir], { env: { GOOGLE_API_KEY: '', SERPER_API_KEY: '', OPENAI_API_KEY: '' } });
      expect(live.status).toBe(1);
      expect(live.stderr.trim().split('\n')).toHaveLength(1);
      expect(live.stderr).toContain('replay instead: add --tools-mode replay --tools-store DIR, DIR being a store recorded with --tools-mode record (tools/stores/examples serves the example legs)');

      const base = ['plan', '--agent', 'oracle', '--path', LEG, '--tools-mode', 'replay', '--tools-store', STORE, '--jobs-dir', dir];
      const cores = os.availableParallelism();
      const spareMb = Math.floor(os.totalmem() / 2 ** 20) - 2048;
      const text = runAar(base).stdout;
      expect(text).toMatch(new RegExp(`^concurrency: ${Math.min(cores, Math.floor(spareMb / 10240)) || 1} trials? at a time \\(auto: ${cores} cores / 1 CPU a trial`, 'm'));
      const sized = JSON.parse(runAar([...base, '--memory', '4g', '--cpus', '0.5', '--format', 'json']).stdout);
      expect(sized.concurrency.value).toBe(Math.max(1, Math.min(Math.floor(cores / 0.5), Math.floor(spareMb / 4096))));
      expect(sized.concurrency.reason).toContain('/ 0.5 CPUs a trial');
      expect(sized.concurrency.reason).toContain('/ 4096 MB a trial');
      expect(JSON.parse(runAar([...base, '--concurrency', '3', '--format', 'json']).stdout).concurrency).toEqual({ value: 3, auto: false, reason: 'set by concurrency' });
      const bad = runAar([...base, '--memory', 'lots']);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/^aar: command line: --memory: .*\n$/);
    } finally {
      cleanup();
    }
  });

  test('colour on a terminal: status words and the progress bar; none with NO_COLOR or when not a terminal', () => {
    const { dir, cleanup } = tempDir();
    try {
      const flags = ['--agent', 'oracle', '--path', LEG, '--tools-mode', 'replay', '--tools-store', STORE, '--jobs-dir', dir, '--no-report'];
      const lines = runAarOnTerminal(['run', ...flags, '--progress', 'lines']);
      expect(lines.status).toBe(0);
      expect(lines.out).toMatch(/: completed, \x1b\[32mcorrect\x1b\[39m, /);
      const bar = runAarOnTerminal(['run', ...flags, '--progress', 'bar', '--name', 'bar']);
      expect(bar.status).toBe(0);
      expect(bar.out).toMatch(/\x1b\[36m=+\x1b\[39m 1\/1 trials/);
      const plain = runAarOnTerminal(['run', ...flags, '--progress', 'bar', '--name', 'plain'], { NO_COLOR: '1' });
      expect(plain.out).toMatch(/={24} 1\/1 trials/);
      expect(plain.out).not.toMatch(COLOUR);

      const refusedArgs = ['plan', ...flags.slice(0, -1), '--timeout', '60'];
      expect(runAarOnTerminal(refusedArgs).out).toContain(`\x1b[31mrefused\x1b[39m: ${path.join(dir, 'job')} holds trials`);
      expect(runAarOnTerminal(refusedArgs, { NO_COLOR: '1' }).out).not.toMatch(COLOUR);
      const piped = runAar(refusedArgs);
      expect(piped.stdout).toContain('\nrefused: ');
      expect(piped.stdout + piped.stderr).not.toMatch(COLOUR);
      const pipedRun = runAar(['run', ...flags, '--progress', 'lines', '--name', 'piped']);
      expect(pipedRun.stderr).toMatch(/: completed, correct, /);
      expect(pipedRun.stderr).not.toMatch(COLOUR);
    } finally {
      cleanup();
    }
  });
});
