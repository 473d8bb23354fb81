import { spawnSync } from 'node:child_process';
import { Console } from 'node:console';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inProcessProgram, runInProcess } from '../../container/in-process.js';
import type { TrialWorkWire } from '../../trial/handover.js';
import { REPO_ROOT, tempDir } from '../helpers/data.js';

const work = (command: string[], over: Partial<TrialWorkWire> = {}): TrialWorkWire => ({
  files: [],
  command,
  in_process: true,
  workdir: '/',
  env: {},
  timeout_ms: 10_000,
  collect_files: [],
  collect_dirs: [],
  limits: { file_bytes: 1024, log_bytes: 1024 },
  ...over,
});

describe('a built-in program run by the trial runner in its own process (one Node process per trial)', () => {
  const tmp = tempDir('aar-in-process-');
  const cwd = process.cwd();
  // In the container a program's console writes to the process's stdout and stderr; jest's console does not.
  const jestConsole = globalThis.console;
  beforeEach(() => (globalThis.console = new Console(process.stdout, process.stderr)));
  afterEach(() => {
    globalThis.console = jestConsole;
    process.chdir(cwd);
  });
  afterAll(() => tmp.cleanup());

  const program = (name: string, body: string): string => {
    const file = path.join(tmp.dir, name);
    writeFileSync(file, `"use strict";\nexports.main = async (argv) => {\n${body}\n};\nif (!globalThis.__aarLoadingInProcess) throw new Error('started as its own process');\n`);
    return file;
  };

  test('its main runs here, in the work folder with the work environment, and its output and exit status come back', async () => {
    const file = program('pid.cjs', `require('fs').writeFileSync('pid.txt', String(process.pid)); console.log('args', argv.join(' '), process.env.AAR_TEST_VALUE); console.error('to stderr'); return 5;`);
    const ran = await runInProcess(work(['node', file, 'a', 'b'], { workdir: tmp.dir, env: { AAR_TEST_VALUE: 'v1' } }), file, false);
    expect(ran.exit_code).toBe(5);
    expect(ran.timed_out).toBe(false);
    expect(readFileSync(path.join(tmp.dir, 'pid.txt'), 'utf8')).toBe(String(process.pid));
    expect(ran.output.stdout.toString()).toBe('args a b v1\n');
    expect(ran.output.stderr.toString()).toBe('to stderr\n');
  });

  test('the timeout ends a program that never finishes, as timed out', async () => {
    const file = program('forever.cjs', 'await new Promise(() => {});');
    const ran = await runInProcess(work(['node', file], { timeout_ms: 300 }), file, false);
    expect(ran).toMatchObject({ exit_code: null, timed_out: true });
    expect(ran.duration_ms).toBeGreaterThanOrEqual(250);
  });

  test('output past the log limit is cut and counted; a program that throws exits 1 with its message', async () => {
    const loud = program('loud.cjs', `process.stdout.write('x'.repeat(5000)); throw new Error('broken');`);
    const ran = await runInProcess(work(['node', loud]), loud, false);
    expect(ran.exit_code).toBe(1);
    expect(ran.output.stdout.length).toBe(1024);
    expect(ran.output.stdoutSize).toBe(5000);
    expect(ran.output.stderr.toString()).toContain('broken');
  });

  test('only a marked `node /ABSOLUTE/FILE` command is loaded; anything else runs as a process', () => {
    expect(inProcessProgram(work(['node', '/opt/aar/oracle.cjs', 'leg.json']))).toBe('/opt/aar/oracle.cjs');
    expect(inProcessProgram(work(['node', '/opt/aar/oracle.cjs'], { in_process: undefined }))).toBeNull();
    expect(inProcessProgram(work(['node', 'oracle.cjs']))).toBeNull();
    expect(inProcessProgram(work(['sh', '-c', 'node /x.cjs']))).toBeNull();
  });

  test('the built bundles run either way: as their own process and loaded (the WikiRace player without arguments: usage, status 2)', async () => {
    const bundle = path.join(REPO_ROOT, 'dist', 'agents', 'wikirace-player.cjs');
    const own = spawnSync(process.execPath, [bundle], { encoding: 'utf8' });
    expect(own.status).toBe(2);
    expect(own.stderr).toContain('usage: wikirace-player');
    const loaded = await runInProcess(work(['node', bundle]), bundle, false);
    expect(loaded.exit_code).toBe(2);
    expect(loaded.output.stderr.toString()).toContain('usage: wikirace-player');
  });
});
