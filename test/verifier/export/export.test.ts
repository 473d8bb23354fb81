import { jest } from '@jest/globals';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { dockerAvailable } from '../../../common/docker.js';
import { runAar } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { checkWithPython } from '../../helpers/python-tools.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('export test skipped: no Docker engine answers (run images/docker-up.sh)');
jest.setTimeout(20 * 60_000);
const tmp = tempDir('aar-export-');
afterAll(() => tmp.cleanup());

type InspectSample = {
  id: string; epoch: number; trial_id: string; roles: string[]; input: string; target: string; output: string; limit: string | null;
  scores: Record<string, Record<string, unknown>>; answers: Record<string, string | null>; explanations: Record<string, string>; events: string[]; model_inputs: number[];
};
type InspectCheck = Record<string, { status: string; header: { task: string; task_id: string; model: string; plan: string[]; samples: number; scores: Record<string, number>; has_samples: boolean }; samples: InspectSample[] }>;
type HarborCheck = { n_total_trials: number; trials: Record<string, { rewards: Record<string, number>; reward_json: Record<string, number>; reward_valid: boolean }> };
type ScanTrial = { agent: string; model: string | null; trial_uri: string; trials_dir: string; source: string; started_at: string; finished_at: string; phases: Record<string, boolean>; exception: string | null; tokens: unknown[] };
type ScanCheck = Record<string, { config: { agents: string[]; models: (string | null)[]; datasets: string[]; environment: string | null } | null; result: { n_total_trials: number; n_completed: number; n_errored: number; evals: string[] } | null; trials: Record<string, ScanTrial | null> }>;

/** Every trial's score.json, by trial id. */
function scores(jobDir: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const e of readdirSync(jobDir, { withFileTypes: true })) {
    if (e.isDirectory() && !e.name.startsWith('.')) out.set(e.name, JSON.parse(readFileSync(path.join(jobDir, e.name, 'score.json'), 'utf8')) as Record<string, unknown>);
  }
  return out;
}

const jobsDir = path.join(tmp.dir, 'jobs');
const run = (name: string, args: string[]) => runAar(['run', ...args, '--name', name, '--jobs-dir', jobsDir, '--progress', 'lines', '--no-report']);

(HAVE_DOCKER ? describe : describe.skip)('aar export: Inspect and Harbor read the scores back exactly, and their viewers read the whole job', () => {
  test('an oracle + random AAR job: trajectories valid for Harbor, FA/PVR/RCR equal score.json in both exports, verify unchanged', async () => {
    const jobDir = path.join(jobsDir, 'export');
    const ran = run('export', ['--agent', 'oracle', '--agent', 'random', '--path', path.join(REPO_ROOT, 'tasks', 'examples'), '--limit', '2', '--tools-mode', 'replay', '--tools-store', path.join(REPO_ROOT, 'tools', 'stores', 'examples')]);
    expect(ran.status).toBe(0);
    const stored = scores(jobDir);
    expect(stored.size).toBe(4);

    const trajectories = [...stored.keys()].map((id) => path.join(jobDir, id, 'trajectory.json'));
    const atif = await checkWithPython<Record<string, { schema_version: string; sources: string[]; tool_calls: number; observations: number }>>('atif', trajectories);
    for (const file of trajectories) {
      expect(atif[file]!.schema_version).toBe('ATIF-v1.8');
      expect(atif[file]!.sources[0]).toBe('user'); // the instruction, then the tool calls
      expect(atif[file]!.observations).toBe(atif[file]!.tool_calls);
    }
    expect(Object.entries(atif).filter(([f]) => f.includes('oracle__')).every(([, t]) => t.tool_calls > 0)).toBe(true);

    // A re-verify reads the trial as before: trajectory.json is sealed with the rest, and scoring never reads it.
    const verify = runAar(['verify', jobDir]);
    expect(verify.stdout).toContain('4 trials: 4 scored, 0 would change, 0 tampered');

    const inspectDir = path.join(tmp.dir, 'inspect');
    const exported = runAar(['export', jobDir, '--format', 'inspect', '--out', inspectDir]);
    expect(exported.stderr).toBe('');
    expect(exported.stdout).toContain('exported 4 trials as inspect');
    const logs = readdirSync(inspectDir).map((f) => path.join(inspectDir, f));
    // Inspect's own naming (<start>_<task>_<id>.json): inspect view lists no other .json (the check asks its list_eval_logs).
    expect(logs.map((f) => path.basename(f)).sort()).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\+00-00_export-oracle_[0-9a-f]{12}\.json$/), expect.stringMatching(/_export-random_[0-9a-f]{12}\.json$/)]);
    const inspect = await checkWithPython<InspectCheck>('inspect', logs);
    // The header alone (what `inspect view` lists; issue 35: it failed, "Must encounter a 'plan'"): one task per agent, its figures.
    const headers = Object.values(inspect).map((l) => l.header);
    expect(headers.map((h) => h.task).sort()).toEqual(['export/oracle', 'export/random']);
    expect(new Set(headers.map((h) => h.task_id)).size).toBe(2);
    for (const h of headers) {
      expect(h.has_samples).toBe(false);
      expect(h.plan).toEqual([h.task.split('/')[1]]);
      expect(h.samples).toBe(2);
    }
    expect(headers.find((h) => h.task === 'export/oracle')!.scores).toEqual({ fa: 1, pvr: 1, rcr: 1 });
    const samples = Object.values(inspect).flatMap((log) => log.samples);
    expect(samples).toHaveLength(4);
    for (const sample of samples) {
      const score = stored.get(sample.trial_id)!;
      expect(sample.scores).toEqual({ aar: { fa: score.fa, pvr: score.pvr, rcr: score.rcr } });
      expect(sample.epoch).toBe(1);
      // Target, answer and the scorer's explanation, and the transcript as events.
      expect(sample.target).toBe(String(score.expected_answer));
      expect(sample.output).toBe(String(score.agent_answer));
      expect(sample.answers.aar).toBe(String(score.agent_answer));
      expect(sample.explanations.aar).toContain(`expected ${score.expected_answer} (FA ${score.fa})`);
      expect(sample.input).toMatch(/^Start at https:\/\/en\.wikipedia\.org\/wiki\/\S+ and solve the riddle: 1\. /);
      expect(sample.events.slice(0, 3)).toEqual(['span_begin', 'sample_init', 'span_end']);
      expect(sample.events).toContain('score');
    }
    const oracle = samples.find((s) => s.trial_id.startsWith('oracle__'))!;
    expect(oracle.roles).toEqual(expect.arrayContaining(['user', 'assistant', 'tool']));
    expect(oracle.events.filter((e) => e === 'tool').length).toBe(oracle.roles.filter((r) => r === 'tool').length);

    const harborDir = path.join(tmp.dir, 'harbor-jobs', 'export');
    expect(runAar(['export', jobDir, '--format', 'harbor', '--out', harborDir]).status).toBe(0);
    const harbor = await checkWithPython<HarborCheck>('harbor', [harborDir]);
    expect(harbor.n_total_trials).toBe(4);
    for (const [id, score] of stored) {
      expect(harbor.trials[id]).toEqual({ rewards: { fa: score.fa, pvr: score.pvr, rcr: score.rcr }, reward_json: { fa: score.fa, pvr: score.pvr, rcr: score.rcr }, reward_valid: true, tokens: [0, 0, 0, null] });
    }
    // Moved elsewhere, the export reads the same: nothing in it names where it was written (issue 35).
    const moved = path.join(tmp.dir, 'moved', 'export');
    cpSync(harborDir, moved, { recursive: true });
    const scan = await checkWithPython<ScanCheck>('scan', [path.dirname(moved)]);
    const job = scan.export!;
    expect(job.config).toEqual({ agents: ['oracle', 'random'], models: [null, null], datasets: ['examples'], environment: 'docker' });
    expect(job.result).toMatchObject({ n_total_trials: 4, n_completed: 4, n_errored: 0, evals: ['oracle__examples', 'random__examples'] });
    for (const [id, trial] of Object.entries(job.trials)) {
      expect(trial).not.toBeNull();
      expect(trial!.trial_uri).toBe(id);
      expect(trial!.trials_dir).toBe('.');
      expect(trial!.source).toBe('examples');
      expect(trial!.phases).toEqual({ environment_setup: true, agent_setup: false, agent_execution: true, verifier: true });
      expect(Date.parse(trial!.finished_at)).toBeGreaterThanOrEqual(Date.parse(trial!.started_at));
    }
    expect(JSON.stringify(scan)).not.toContain(tmp.dir);

    expect(runAar(['export', jobDir, '--format', 'csv']).stderr).toContain('--format: expected one of inspect, harbor, got csv');
  });

  test('a WikiRace job: the target page and the page reached, the moves as tool events, in both viewers\' readers', async () => {
    const jobDir = path.join(jobsDir, 'wr');
    const ran = runAar(['run', path.join(REPO_ROOT, 'configs', 'wikirace-examples.yaml'), '--limit', '2', '--name', 'wr', '--jobs-dir', jobsDir, '--progress', 'lines', '--no-report']);
    expect([ran.status, ran.stderr.split('\n').filter((l) => l.startsWith('aar:'))]).toEqual([0, []]);
    const stored = scores(jobDir);
    const inspectDir = path.join(tmp.dir, 'inspect-wr');
    expect(runAar(['export', jobDir, '--format', 'inspect', '--out', inspectDir]).status).toBe(0);
    const inspect = await checkWithPython<InspectCheck>('inspect', readdirSync(inspectDir).map((f) => path.join(inspectDir, f)));
    for (const log of Object.values(inspect)) expect(log.header.scores).toHaveProperty('success');
    for (const sample of Object.values(inspect).flatMap((l) => l.samples)) {
      const task = JSON.parse(readFileSync(path.join(jobDir, sample.trial_id, 'leg.json'), 'utf8')) as { source: string; target: string };
      const score = stored.get(sample.trial_id)!;
      expect(sample.target).toBe(task.target);
      expect(sample.output).toBe(score.final_page);
      expect(sample.input).toContain(`From ${task.source} to ${task.target}`);
      expect(sample.explanations.wikirace).toMatch(score.success ? /^Reached / : /^Did not reach /);
      expect(sample.events.filter((e) => e === 'tool').length).toBeGreaterThan(Number(score.steps));
    }
    const harborDir = path.join(tmp.dir, 'harbor-jobs', 'wr');
    expect(runAar(['export', jobDir, '--format', 'harbor', '--out', harborDir]).status).toBe(0);
    const scan = await checkWithPython<ScanCheck>('scan', [path.dirname(harborDir)]);
    expect(scan.wr!.config).toMatchObject({ agents: ['oracle', 'random'], datasets: ['examples-wikirace'] });
    expect(Object.values(scan.wr!.trials).every((t) => t !== null && t.phases.agent_execution)).toBe(true);
  });
});
