import { jest } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { dockerAvailable } from '../../../common/docker.js';
import { EXPORTERS } from '../../../verifier/export/registry.js';
import { runAar } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { checkWithPython } from '../../helpers/python-tools.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('export test skipped: no Docker engine answers (run images/docker-up.sh)');
jest.setTimeout(20 * 60_000);
const tmp = tempDir('aar-export-');
afterAll(() => tmp.cleanup());

type InspectCheck = Record<string, { status: string; samples: { id: string; epoch: number; trial_id: string; roles: string[]; scores: Record<string, unknown> }[] }>;
type HarborCheck = { n_total_trials: number; trials: Record<string, { rewards: Record<string, number>; reward_json: Record<string, number>; reward_valid: boolean }> };

/** Every trial's score.json, by trial id. */
function scores(jobDir: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const e of readdirSync(jobDir, { withFileTypes: true })) {
    if (e.isDirectory() && !e.name.startsWith('.')) out.set(e.name, JSON.parse(readFileSync(path.join(jobDir, e.name, 'score.json'), 'utf8')) as Record<string, unknown>);
  }
  return out;
}

(HAVE_DOCKER ? describe : describe.skip)('aar export: Inspect and Harbor read the scores back exactly', () => {
  test('an oracle + random AAR job: trajectories valid for Harbor, FA/PVR/RCR equal score.json in both exports, verify unchanged', async () => {
    const jobDir = path.join(tmp.dir, 'jobs', 'export');
    const run = runAar(['run', '--agent', 'oracle', '--agent', 'random', '--path', path.join(REPO_ROOT, 'tasks', 'examples'), '--limit', '2', '--tools-mode', 'replay', '--tools-store', path.join(REPO_ROOT, 'tools', 'stores', 'examples'), '--name', 'export', '--jobs-dir', path.join(tmp.dir, 'jobs'), '--progress', 'lines', '--no-report']);
    expect(run.status).toBe(0);
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
    const samples = Object.values(inspect).flatMap((log) => log.samples);
    expect(samples).toHaveLength(4);
    for (const sample of samples) {
      const score = stored.get(sample.trial_id)!;
      expect(sample.scores).toEqual({ fa: score.fa, pvr: score.pvr, rcr: score.rcr });
      expect(sample.epoch).toBe(1);
    }
    expect(samples.find((s) => s.trial_id.startsWith('oracle__'))!.roles).toEqual(expect.arrayContaining(['user', 'assistant', 'tool']));

    const harborDir = path.join(tmp.dir, 'harbor');
    expect(runAar(['export', jobDir, '--format', 'harbor', '--out', harborDir]).status).toBe(0);
    const harbor = await checkWithPython<HarborCheck>('harbor', [harborDir]);
    expect(harbor.n_total_trials).toBe(4);
    for (const [id, score] of stored) {
      expect(harbor.trials[id]).toEqual({ rewards: { fa: score.fa, pvr: score.pvr, rcr: score.rcr }, reward_json: { fa: score.fa, pvr: score.pvr, rcr: score.rcr }, reward_valid: true, tokens: [0, 0, 0, null] });
    }

    expect(runAar(['export', jobDir, '--format', 'nope']).stderr).toBe(`aar: --format: expected one of ${EXPORTERS.map((e) => e.name).join(', ')}, got nope\n`);
  });
});
