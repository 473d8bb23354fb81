import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { AAR_DATA_DIR, EXAMPLES_DIR, HAVE_AAR_DATA, REPO_ROOT, tempDir } from '../../helpers/data.js';
import { runAar } from '../../helpers/cli.js';

const ok = (r: ReturnType<typeof runAar>) => {
  if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
};

describe('aar (the compiled command, run as a process)', () => {
  test('tasks list: the example legs by default, with K and B', () => {
    const out = ok(runAar(['tasks', 'list']));
    expect(out).toContain('examples-dag/medium/sample_002');
    expect(out).toMatch(/examples-dag\/medium\/sample_002\s+K=7\s+B=10/);
    expect(out.trim().split('\n').at(-1)).toBe('3 legs');
  });

  (HAVE_AAR_DATA ? test : test.skip)('tasks list with filters over the real data', () => {
    const out = ok(runAar(['tasks', 'list', AAR_DATA_DIR, '--variant', 'aar-dag', '--level', 'easy']));
    expect(out.trim().split('\n').at(-1)).toBe('100 legs');
    const sample = ok(runAar(['tasks', 'list', AAR_DATA_DIR, '--sample', '5', '--seed', '42', '--json']));
    expect(JSON.parse(sample)).toHaveLength(5);
    expect(ok(runAar(['tasks', 'list', AAR_DATA_DIR, '--sample', '5', '--seed', '42', '--json']))).toBe(sample);
  });

  test('tasks show: stops, and the instruction the agent gets', () => {
    const out = ok(runAar(['tasks', 'show', 'examples-dag/medium/sample_002']));
    expect(out).toContain('passcode 4');
    expect(out).toMatch(/\[4\] tool\s+= 19053835\s+python_execute_code/);
    const instruction = ok(runAar(['tasks', 'show', path.join(EXAMPLES_DIR, 'examples-linear/easy/sample_001.json'), '--instruction']));
    expect(instruction).toContain('https://en.wikipedia.org/wiki/Eiffel_Tower');
    expect(instruction).toContain('tools maps_geocode');
  });

  test('tasks validate: the example legs check out; a wrong passcode is a mismatch with a non-zero exit', () => {
    expect(ok(runAar(['tasks', 'validate']))).toMatch(/3 legs.*0 mismatches/s);
    const { dir, cleanup } = tempDir();
    try {
      const leg = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, 'examples-linear/easy/sample_003.json'), 'utf8'));
      leg.passcode = (leg.passcode + 1) % 10;
      const file = path.join(dir, 'broken.json');
      writeFileSync(file, JSON.stringify(leg));
      const r = runAar(['tasks', 'validate', file]);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/1 mismatch/);
      expect(r.stdout).toContain('passcode');
    } finally {
      cleanup();
    }
  });

  (HAVE_AAR_DATA ? test : test.skip)('tasks validate on the released data: 1,400 legs, 0 mismatches', () => {
    const out = ok(runAar(['tasks', 'validate', AAR_DATA_DIR]));
    expect(out).toMatch(/1400 legs/);
    expect(out).toMatch(/\b0 mismatches/);
  });

  test('score: a missing answer file is "not answered" and the command succeeds', () => {
    const leg = path.join(EXAMPLES_DIR, 'examples-linear/easy/sample_003.json');
    const score = JSON.parse(ok(runAar(['score', '--leg', leg, '--answer', '/nonexistent/answer.txt', '--tool-log', '/nonexistent/log'])));
    expect(score).toMatchObject({ status: 'unknown', status_reason: 'agent did not write /app/answer.txt', answered: 0, fa: 0, total_tool_calls: 0 });
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(path.join(dir, 'answer.txt'), '8\n');
      writeFileSync(path.join(dir, 'log.jsonl'), JSON.stringify({ tool: 'stock_historical_price', args: { ticker: 'AAPL', date: '2024-01-12' }, success: true, result_preview: '185.92', result_len: 6, ts: 1 }) + '\n');
      const out = ok(runAar(['score', '--leg', leg, '--answer', path.join(dir, 'answer.txt'), '--tool-log', path.join(dir, 'log.jsonl'), '--reference']));
      expect(out.startsWith('{\n  "reward": 1.0,\n  "status": "correct",')).toBe(true);
      expect(JSON.parse(out)).toMatchObject({ right_tool_calls: 1, golden_chain_length: 1, tools_used: 1 });
      expect(JSON.parse(out)).not.toHaveProperty('fa');
    } finally {
      cleanup();
    }
  });

  test('bad input: one line naming the file', () => {
    const missing = runAar(['score', '--leg', '/nonexistent/leg.json']);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe('aar: /nonexistent/leg.json: no such leg file');
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'leg.json');
      writeFileSync(file, '{"stops": [}');
      const bad = runAar(['score', '--leg', file]);
      expect(bad.status).toBe(1);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toContain(file);
      const report = runAar(['report', dir, '--format', 'xml']);
      expect(report.stderr.trim()).toBe('aar: --format: expected one of md, csv, json, html, got xml');
    } finally {
      cleanup();
    }
  });

  test('verify and report over a job folder', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { legs } = await loadLegs(EXAMPLES_DIR);
      writeSyntheticJob(dir, legs, 9);
      // Without --fix nothing is written, and the exit status says that scores are missing.
      const missing = runAar(['verify', dir]);
      expect(missing.status).toBe(1);
      expect(missing.stdout).toMatch(/^3 trials: 3 scored, 3 would change, 0 tampered, 0 infrastructure errors \(not scored\)\n  would change: \S+: no score.json yet\n/);
      expect(missing.stdout).toContain('3 trials were written before trial.json held file hashes: only their leg.json was checked');
      expect(runAar(['verify', dir, '--fix']).stdout).toMatch(/^3 trials: 3 scored, 3 changed, 0 tampered/);
      expect(ok(runAar(['verify', dir]))).toMatch(/^3 trials: 3 scored, 0 would change/);
      expect(ok(runAar(['verify', dir, '--workers', '2']))).toMatch(/^3 trials: 3 scored, 0 would change/);
      for (const f of readdirSync(dir).filter((d) => !d.startsWith('.') && !d.endsWith('.csv'))) writeFileSync(path.join(dir, f, 'score.json'), '{}');
      const fixed = runAar(['verify', dir, '--workers', '2', '--fix']);
      expect(fixed.status).toBe(1);
      expect(fixed.stdout).toMatch(/^3 trials: 3 scored, 3 changed/);
      expect(fixed.stdout).toMatch(/changed: \S+: reward \(absent\) -> 0, status \(absent\) -> "\w+", /);
      expect(ok(runAar(['report', dir]))).toMatch(/^\| agent \| model \|/);
      const out = path.join(dir, 'report.csv');
      ok(runAar(['report', dir, '--format', 'csv', '--out', out]));
      expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^agent,model,variant,level/);
    } finally {
      cleanup();
    }
  });

  test('commands that did nothing say what they found and exit non-zero', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const notJob = path.join(dir, 'not-a-job');
      mkdirSync(notJob);
      for (const command of ['verify', 'report']) {
        const r = runAar([command, notJob]);
        expect([command, r.status, r.stderr.trim()]).toEqual([command, 1, `aar: ${notJob}: not a job folder (no job.json and no trial folder holding a trial.json)`]);
      }
      const job = path.join(dir, 'job');
      const { legs } = await loadLegs(EXAMPLES_DIR);
      writeSyntheticJob(job, legs, 9);
      const trial = path.join(job, readdirSync(job).find((d) => !d.startsWith('.'))!);
      for (const command of ['verify', 'report']) {
        const r = runAar([command, trial]);
        expect([command, r.status, r.stderr.trim()]).toEqual([command, 1, `aar: ${trial} is one trial's folder, not a job folder: give its job folder (${job})`]);
      }
      const none = runAar(['tasks', 'list', '--variant', 'aar-tree']);
      expect(none.status).toBe(1);
      expect(none.stdout.trim()).toBe('0 legs');
      expect(none.stderr.trim()).toBe('aar: no leg of the 3 loaded matches the filters (variants: examples-dag, examples-linear; levels: easy, medium)');
      const config = path.join(dir, 'job.yaml');
      writeFileSync(config, `tasks: {path: ${EXAMPLES_DIR}, variants: [aar-tree]}\nagents: [{name: oracle}]\noutput: ${dir}/jobs\n`);
      const run = runAar(['run', config]);
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(`aar: ${config}: tasks: no task of the 3 loaded matches the filters (variants: examples-dag, examples-linear; levels: easy, medium)`);
      expect(existsSync(path.join(dir, 'jobs'))).toBe(false);
    } finally {
      cleanup();
    }
  });

  test('a corrupt trial.json or leg.json is named, and the rest of the job is still reported', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { legs } = await loadLegs(EXAMPLES_DIR);
      writeSyntheticJob(dir, legs, 9);
      const [first, second] = readdirSync(dir).filter((d) => !d.startsWith('.')).sort();
      writeFileSync(path.join(dir, first, 'trial.json'), '{"format": "aar-harness/trial@1", "trial_');
      const report = runAar(['report', dir, '--format', 'csv']);
      expect(report.status).toBe(1);
      expect(report.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^aar: skipped unreadable trial: ${path.join(dir, first, 'trial.json')}: `))]);
      expect(report.stdout.split('\n')[0]).toMatch(/^agent,model,variant,level/);
      expect(report.stdout).toMatch(/,2,/);
      writeFileSync(path.join(dir, second, 'leg.json'), '{"stops": [\n  1,\n');
      const verify = runAar(['verify', dir]);
      expect(verify.status).toBe(1);
      expect(verify.stderr).toContain(`${path.join(dir, second, 'leg.json')}: invalid JSON at line 3`);
    } finally {
      cleanup();
    }
  });

  test('a live job checks the tool keys it needs before it starts', () => {
    const { dir, cleanup } = tempDir();
    try {
      const config = path.join(dir, 'live.yaml');
      writeFileSync(config, `tasks: {path: ${EXAMPLES_DIR}}\nagents: [{name: oracle}]\noutput: ${dir}/jobs\ntools: {mode: live}\n`);
      const r = runAar(['run', config], { env: { GOOGLE_API_KEY: '', SERPER_API_KEY: 'set', OPENAI_API_KEY: '' } });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^aar: ${config}: tools\\.mode: live tools call the real services and need GOOGLE_API_KEY \\(maps_geocode, [^)]*\\), OPENAI_API_KEY \\(python_generate_code\\) in the host environment; set them, or replay instead: tools: \\{mode: replay, store: DIR\\}, DIR being a store recorded with --tools-mode record \\(tools/stores/examples serves the example legs\\)\n$`));
      expect(existsSync(path.join(dir, 'jobs'))).toBe(false);
    } finally {
      cleanup();
    }
  });

  test('bad flag values print one line naming the flag', () => {
    expect(runAar(['tasks', 'list', '--level', 'easiest'])).toMatchObject({ status: 1, stderr: 'aar: --level: expected one of easy, medium, hard, extreme, got easiest\n' });
    expect(runAar(['tasks', 'list', '--sample', 'abc'])).toMatchObject({ status: 1, stderr: 'aar: --sample: expected a positive whole number, got abc\n' });
    expect(runAar(['tasks', 'list', '--limit', '0'])).toMatchObject({ status: 1, stderr: 'aar: --limit: expected a positive whole number, got 0\n' });
    expect(runAar(['tasks', 'list', '--sample', '2', '--seed', 'x'])).toMatchObject({ status: 1, stderr: 'aar: --seed: expected a whole number, got x\n' });
  });

  test('tools list: the 19 tools', () => {
    const out = ok(runAar(['tools', 'list']));
    expect(out).toMatch(/^19 tools; aliases: serper_search -> web_search, serper_google_search -> web_search$/m);
    expect(out.split('\n').filter((l) => /^[a-z_]+\s+(web|maps|weather|code|countries|finance)\s/.test(l))).toHaveLength(19);
  });

  test('the package root resolves from the compiled files', () => {
    expect(existsSync(path.join(REPO_ROOT, 'dist', 'harness', 'cli', 'main.js'))).toBe(true);
  });
});
