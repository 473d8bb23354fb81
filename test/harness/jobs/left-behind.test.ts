import { jest } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docker, dockerAvailable } from '../../../common/docker.js';
import { jobKeyOf } from '../../../harness/jobs/labels.js';
import { processStart } from '../../../harness/jobs/lock.js';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

/** Issue 35, item 7: what a job left behind that it should not have, and what report, compare and export said nothing of. */
const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
if (!HAVE_DOCKER) console.warn('left-behind tests skipped: no Docker engine answers (run images/docker-up.sh)');
jest.setTimeout(600_000);

const oneLeg = { path: EXAMPLES_DIR, ids: ['examples-linear/easy/sample_001'] };
const containersOf = async (jobDir: string): Promise<string[]> =>
  (await docker().listContainers({ all: true, filters: { label: [`aar.job_key=${jobKeyOf(jobDir)}`] } })).map((c) => c.Id);

describeDocker('nothing left behind', () => {
  const tmp = tempDir('aar-left-behind-');
  afterAll(() => tmp.cleanup());
  const jobsDir = path.join(tmp.dir, 'jobs');

  test('a run refused before its first trial leaves no job folder (a later run would take it for a job)', () => {
    const config = writeJobConfig(tmp.dir, { name: 'refused', tasks: oneLeg, instruction_template: path.join(tmp.dir, 'no-such-template.md') }, 'refused.yaml');
    const run = runAar(['run', config, '--progress', 'lines', '--no-report']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('instruction_template');
    expect(existsSync(path.join(jobsDir, 'refused'))).toBe(false);
  });

  test('a finished job keeps no empty .partial; one trial is "1 trial run"', () => {
    const config = writeJobConfig(tmp.dir, { name: 'finished', tasks: oneLeg }, 'finished.yaml');
    const run = runAar(['run', config, '--progress', 'lines', '--no-report']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/: 1 trial run, 0 already done, 0 infrastructure errors, /);
    expect(run.stderr).toMatch(/^job finished: 1 trial, 0 already done, 1 to run$/m);
    expect(readdirSync(path.join(jobsDir, 'finished')).sort()).toEqual(['job.json', 'oracle__examples-linear__easy__sample_001__1']);
  });

  test('`aar cleanup --job` removes the lock its killed run left', () => {
    const jobDir = path.join(jobsDir, 'finished');
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const pid = Number(gone.stdout.trim());
    writeFileSync(path.join(jobDir, '.lock'), JSON.stringify({ pid, host: os.hostname(), started_at: new Date().toISOString(), process_start: processStart(process.pid), command: 'aar run' }) + '\n');
    const cleanup = runAar(['cleanup', '--job', jobDir]);
    expect(cleanup.status).toBe(0);
    expect(existsSync(path.join(jobDir, '.lock'))).toBe(false);
  });

  test('Ctrl-C with the output piped to a reader that went away too: exit 130, no lock, no half-written trial, no container, and a resume completes', async () => {
    const jobDir = path.join(jobsDir, 'piped');
    const config = writeJobConfig(tmp.dir, { name: 'piped', tasks: { path: EXAMPLES_DIR, limit: 2 }, concurrency: 2, agents: [{ name: 'command', id: 'sleeper', options: { command: 'echo started; sleep 30; printf 6 > /app/answer.txt' } }] }, 'piped.yaml');
    const child = spawn(process.execPath, [AAR_BIN, 'run', config, '--progress', 'lines'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    // Both trials' agents running: then the reader goes (it got the same Ctrl-C), then the job gets SIGINT.
    for (let i = 0; i < 3000 && (await containersOf(jobDir)).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    const partial = path.join(jobDir, '.partial');
    const started = () => (existsSync(partial) ? readdirSync(partial).filter((d) => existsSync(path.join(partial, d, 'agent', 'stdout.log')) && readFileSync(path.join(partial, d, 'agent', 'stdout.log'), 'utf8').includes('started')).length : 0);
    for (let i = 0; i < 3000 && started() < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(started()).toBe(2);
    child.stdout!.destroy();
    child.stderr!.destroy();
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(readdirSync(jobDir).sort()).toEqual(['job.json']);
    expect(await containersOf(jobDir)).toEqual([]);
    const again = runAar(['run', config, '--progress', 'lines', '--no-report']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/: 2 trials run, 0 already done, 0 infrastructure errors/);
  });

  test('report, compare and export say which trials were changed after the run (only verify did)', () => {
    const jobDir = path.join(jobsDir, 'finished');
    const trial = path.join(jobDir, 'oracle__examples-linear__easy__sample_001__1');
    appendFileSync(path.join(trial, 'tool_log.jsonl'), JSON.stringify({ tool: 'fetch_webpage', args: { url: 'https://en.wikipedia.org/wiki/Gustave_Eiffel' }, success: true, result_preview: '', result_len: 0, ts: 1 }) + '\n');
    const warning = `aar: warning: ${trial}: tool_log.jsonl changed after the run (its seal in trial.json says otherwise); its stored score is used as it is; aar verify ${jobDir} says what changed\n`;
    expect(runAar(['report', jobDir]).stderr).toBe(warning);
    expect(runAar(['compare', jobDir]).stderr).toContain(warning);
    const exported = runAar(['export', jobDir, '--format', 'harbor', '--out', path.join(tmp.dir, 'export')]);
    expect([exported.status, exported.stderr]).toEqual([0, warning]);
  });
});
