import { WIKIRACE_TRIAL_FILES } from '../../../tasks/wikirace/trial-files.js';
import { jest } from '@jest/globals';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { modelHandlerFor } from '../../../harness/gateway/models/handler.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { listTrialDirs, readTrialText, TRIAL_FILES } from '../../../trial/folder.js';
import { parseTrajectory } from '../../../tasks/wikirace/game/trajectory.js';
import type { GameScore } from '../../../tasks/wikirace/scoring/score.js';
import { loadJobResults } from '../../../verifier/results.js';
import { startScriptedModelServer, type ScriptTurn } from '../../doubles/scripted-model/index.js';
import { runAar } from '../../helpers/cli.js';
import { REPO_ROOT } from '../../helpers/data.js';
import { harnessContainers } from '../../helpers/jobs.js';
import { checkWithPython } from '../../helpers/python-tools.js';
import { wikiraceJobSetup } from '../../helpers/wikirace-job.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('WikiRace Docker tests skipped: no Docker engine answers (run images/docker-up.sh)');
jest.setTimeout(15 * 60_000);

const PAIRS = [
  { split: 'easy', source: 'Page 1', target: 'Page 40' },
  { split: 'easy', source: 'Page 2', target: 'Page 40' },
  { split: 'medium', source: 'Page 2', target: 'Page 60' },
  { split: 'medium', source: 'Hub', target: 'Page 79' },
] as const;

const { tmp, writeConfig } = wikiraceJobSetup('aar-wikirace-job-', PAIRS, {
  agents: [{ name: 'oracle' }],
  timeout_s: 120,
  concurrency: 2,
  resources: { memory_mb: 512, cpus: 1, pids: 256 },
});

(HAVE_DOCKER ? describe : describe.skip)('WikiRace jobs in Docker', () => {
  test('oracle: every game reached with 0 suboptimal steps; random is scored from its seed; verify and report agree', async () => {
    const summary = await runJob({ configPath: writeConfig('baselines', { agents: [{ name: 'oracle' }, { name: 'random' }] }), reporter: new QuietReporter() });
    expect(summary).toMatchObject({ planned: 8, ran: 8, infraErrors: 0 });
    const results = loadJobResults<GameScore>(summary.jobDir);
    for (const r of results) {
      expect(r.record).toMatchObject({ family: 'wikirace', status: 'completed', step_budget: 90 });
      const moves = parseTrajectory(readTrialText(r.dir, WIKIRACE_TRIAL_FILES.trajectory) ?? '');
      expect(moves).toHaveLength(r.score!.steps);
      const log = (readTrialText(r.dir, TRIAL_FILES.toolLog) ?? '').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; success: boolean });
      expect(log.filter((l) => l.tool === 'wikirace_move' && l.success)).toHaveLength(moves.length);
    }
    const oracle = results.filter((r) => r.record.agent.id === 'oracle');
    expect(oracle.map((r) => [r.score!.success, r.score!.suboptimal_steps, r.score!.steps === r.score!.optimal_length])).toEqual(PAIRS.map(() => [1, 0, true]));
    // The baselines use no model: their own step counts (tool calls) are not model calls.
    for (const r of results) expect([r.record.agent.uses_model, r.score!.model_calls]).toEqual([false, null]);
    expect(oracle.every((r) => r.record.run.steps! > r.score!.steps)).toBe(true);
    const random = results.filter((r) => r.record.agent.id === 'random');
    expect(random.every((r) => r.score!.steps > 0 && r.score!.problem === null)).toBe(true);
    expect(random.filter((r) => !r.score!.success).every((r) => r.score!.steps === 30)).toBe(true);
    expect(await harnessContainers('baselines')).toEqual([]);

    const verify = runAar(['verify', summary.jobDir]);
    expect([verify.status, verify.stdout]).toEqual([0, '8 trials: 8 scored, 0 would change, 0 tampered, 0 infrastructure errors (not scored)\n']);
    // Checked against its seal and re-scored offline from the stored trajectory: a line appended by hand is named, and breaks the chain.
    const tampered = oracle[0]!;
    writeFileSync(path.join(tampered.dir, WIKIRACE_TRIAL_FILES.trajectory), readTrialText(tampered.dir, WIKIRACE_TRIAL_FILES.trajectory) + '{"step":99,"from":"Page 1","to":"Page 2","offered":1,"ts":1}\n');
    const caught = runAar(['verify', summary.jobDir, '--dry-run']);
    expect(caught.status).toBe(1);
    expect(caught.stdout).toContain(`  tampered: ${path.join(tampered.dir, WIKIRACE_TRIAL_FILES.trajectory)} (changed after the run)`);
    expect(caught.stdout).toContain(`edited files would give: ${path.basename(tampered.dir)}: success 1 -> 0`);
    writeFileSync(path.join(tampered.dir, WIKIRACE_TRIAL_FILES.trajectory), (readTrialText(tampered.dir, WIKIRACE_TRIAL_FILES.trajectory) ?? '').split('\n').slice(0, -2).join('\n') + '\n');
    expect(runAar(['verify', summary.jobDir, '--dry-run']).stdout).toMatch(/^8 trials: 8 scored, 0 would change, 0 tampered/);
    const report = runAar(['report', summary.jobDir]);
    expect(report.status).toBe(0);
    expect(report.stdout).toContain('success %');
    expect(report.stdout).toMatch(/\| oracle \| - \| \* \| \* \| 4 \| 100\.0 \[\d+\.\d, 100\.0\] \| 0\.00 \|/);
    writeFileSync(path.join(tmp.dir, 'baselines-report.md'), report.stdout);
    // eslint-disable-next-line no-console
    console.log(`WikiRace test graph, oracle and random:\n${report.stdout}`);
  });

  test('an agent cannot forge its path: files it writes are not read, a jump to the target is refused', async () => {
    const forge = [
      `printf '{"step":1,"from":"Page 1","to":"Page 40","offered":3,"ts":1}\\n' > /app/trajectory.jsonl`,
      `tools wikirace_move '{"page": "Page 40"}' || true`,
      `tools wikirace_move '{"page": "Page 2"}'`,
    ].join('; ');
    const config = writeConfig('forger', {
      tasks: { family: 'wikirace', path: path.join(tmp.dir, 'tasks'), ids: ['easy/pair_001'] },
      agents: [{ name: 'command', options: { command: forge } }],
    });
    const summary = await runJob({ configPath: config, reporter: new QuietReporter() });
    const [result] = loadJobResults<GameScore>(summary.jobDir);
    expect(result.score).toMatchObject({ success: 0, steps: 1, final_page: 'Page 2', problem: null });
    expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8')).toContain("Error: 'Page 40' is not among the links available on 'Page 1'");
  });

  test('two agents on the same pair and attempt are offered the same links in the same order; attempt 2 draws anew', async () => {
    // From Hub (links to all 79 other pages, 50 offered): the draw decides which links are offered as well as their order.
    const look = 'tools wikirace_state';
    const config = writeConfig('same-choices', {
      tasks: { family: 'wikirace', path: path.join(tmp.dir, 'tasks'), ids: ['medium/pair_004'] },
      agents: [{ name: 'command', id: 'alpha', options: { command: look } }, { name: 'command', id: 'beta', options: { command: look } }],
      attempts: 2,
    });
    const summary = await runJob({ configPath: config, reporter: new QuietReporter() });
    expect(summary).toMatchObject({ planned: 4, ran: 4, infraErrors: 0 });
    const results = loadJobResults<GameScore>(summary.jobDir);
    const shown = (agent: string, attempt: number) => {
      const r = results.find((t) => t.record.agent.id === agent && t.record.attempt === attempt)!;
      const [line] = (readTrialText(r.dir, TRIAL_FILES.toolLog) ?? '').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; result_preview: string });
      expect(line!.tool).toBe('wikirace_state');
      return { state: line!.result_preview, instruction: readTrialText(r.dir, TRIAL_FILES.instruction), seed: r.record.seed };
    };
    for (const attempt of [1, 2]) {
      const [alpha, beta] = [shown('alpha', attempt), shown('beta', attempt)];
      expect(alpha.seed).not.toBe(beta.seed);
      expect(alpha.state).toContain('Available links (50):');
      expect(beta.state).toBe(alpha.state);
      expect(beta.instruction).toBe(alpha.instruction);
    }
    expect(shown('alpha', 2).state).not.toBe(shown('alpha', 1).state);
  });

  test('the committed example family (tasks/examples-wikirace): the oracle reaches every target with 0 suboptimal steps', async () => {
    const config = writeConfig('examples', { tasks: { family: 'wikirace', path: path.join(REPO_ROOT, 'tasks', 'examples-wikirace') } });
    const summary = await runJob({ configPath: config, reporter: new QuietReporter() });
    const results = loadJobResults<GameScore>(summary.jobDir);
    expect(results).toHaveLength(18);
    expect(results.every((r) => r.score?.success === 1 && r.score.suboptimal_steps === 0)).toBe(true);
    expect(new Set(results.map((r) => `${r.record.leg.variant}/${r.record.leg.level}`))).toEqual(new Set(['examples-wikirace/easy', 'examples-wikirace/medium', 'examples-wikirace/hard']));
  });
});

/** A script that walks `path` by model replies (with one malformed reply first, to be asked again). */
function llmScript(path: readonly string[]): ScriptTurn[] {
  return [{ text: 'I am not sure yet.' }, ...path.slice(1).map((page) => ({ text: `Closest to the target: \\boxed{${page}}` }))];
}

(HAVE_DOCKER ? describe : describe.skip)('WikiRace agents against the scripted model', () => {
  const HOST_KEY = 'sk-wikirace-host-key';
  beforeAll(() => {
    process.env.ANTHROPIC_API_KEY = HOST_KEY;
    process.env.OPENAI_API_KEY = HOST_KEY;
  });

  async function shortestPath(): Promise<string[]> {
    const { taskFamily } = await import('../../../tasks/registry.js');
    const { oraclePlan } = await import('../../../tasks/wikirace/oracle-plan.js');
    const family = taskFamily('wikirace');
    const { tasks } = await family.load([path.join(tmp.dir, 'tasks', 'easy', 'pair_001.json')]);
    const plan = oraclePlan(tasks[0].world, tasks[0].pair);
    const graph = tasks[0].world.graph;
    const walk = ['Page 1'];
    while (plan[walk.at(-1)!] !== 0) {
      const here = graph.pageOf(walk.at(-1)!)!;
      walk.push([...graph.linksOf(here)].map((p) => graph.titles[p]!).find((t) => plan[t] === plan[walk.at(-1)!]! - 1)!);
    }
    return walk;
  }

  test('the llm agent finishes a game: one model call per step, a malformed reply asked again, tokens as served', async () => {
    const walk = await shortestPath();
    const server = await startScriptedModelServer({ script: llmScript(walk), requireKey: HOST_KEY, turns: 'sequence' });
    try {
      const config = writeConfig('llm', {
        tasks: { family: 'wikirace', path: path.join(tmp.dir, 'tasks'), ids: ['easy/pair_001'] },
        agents: [{ name: 'llm', model: 'claude-sonnet-4-6' }],
        models: { anthropic_base_url: server.anthropicBaseUrl, openai_base_url: server.openaiBaseUrl },
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
      const [result] = loadJobResults<GameScore>(summary.jobDir);
      expect(result.record.status).toBe('completed');
      expect(result.score).toMatchObject({ success: 1, steps: walk.length - 1, suboptimal_steps: 0, looped: false });
      expect(server.served.turns).toBe(walk.length);
      expect(result.record.run).toMatchObject({ steps: walk.length, input_tokens: server.served.inputTokens, output_tokens: server.served.outputTokens });
      // Per step = per model call: the malformed reply asked again is a step of its own (walk.length calls for walk.length - 1 moves).
      expect(result.score).toMatchObject({ model_calls: walk.length, output_tokens: server.served.outputTokens });
      expect(result.score!.tokens_per_step).toBeCloseTo((server.served.inputTokens + server.served.outputTokens) / walk.length);
      expect(result.score!.output_tokens_per_step).toBeCloseTo(server.served.outputTokens / walk.length);
      const first = server.requests.find((r) => r.turn === 0)!.body as { messages: { content: string }[] };
      expect(first.messages).toHaveLength(1);
      expect(first.messages[0]!.content).toMatch(/Target page: Page 40\nCurrent page: Page 1\nStep: 1 of 30\nPages visited so far: Page 1\n\nLinks on the current page:\n1\. /);
      const retry = server.requests.find((r) => r.turn === 1)!.body as { messages: { content: string }[] };
      expect(retry.messages[0]!.content).toContain('Your previous answer did not name one of the links above');
      expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8')).toContain(`llm: ${walk.length} model calls`);
    } finally {
      await server.stop();
    }
  });

  test.each([
    ['claude-code', 'claude-sonnet-4-6'],
    ['codex', 'gpt-5.4'],
  ])('%s finishes a game through the tools command', async (agent, model) => {
    const walk = await shortestPath();
    const script: ScriptTurn[] = [
      { say: 'Looking at the game.', bash: 'tools wikirace_state' },
      ...walk.slice(1).map((page) => ({ say: `Moving to ${page}.`, bash: `tools wikirace_move '${JSON.stringify({ page })}'` })),
      { text: 'I reached the target.' },
    ];
    const server = await startScriptedModelServer({ script, requireKey: HOST_KEY });
    try {
      const config = writeConfig(agent, {
        tasks: { family: 'wikirace', path: path.join(tmp.dir, 'tasks'), ids: ['easy/pair_001'] },
        agents: [{ name: agent, model }],
        timeout_s: 300,
        resources: { memory_mb: 4096, cpus: 2, pids: 1024 },
        models: { anthropic_base_url: server.anthropicBaseUrl, openai_base_url: server.openaiBaseUrl },
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
      const [result] = loadJobResults<GameScore>(summary.jobDir);
      expect(result.record.status).toBe('completed');
      expect(result.score).toMatchObject({ success: 1, steps: walk.length - 1, suboptimal_steps: 0 });
      expect(result.record.run.steps).toBe(server.served.turns);
      expect(result.score!.tokens).toBe(server.served.inputTokens + server.served.outputTokens);
      expect(readTrialText(result.dir, TRIAL_FILES.instruction)).toContain('tools wikirace_move');
    } finally {
      await server.stop();
    }
  });

  test("every trial's trajectory.json (oracle, llm, claude-code, codex) is valid for Harbor's model; every job exports to Inspect and Harbor with WikiRace's figures exactly", async () => {
    const jobsDir = path.join(tmp.dir, 'jobs');
    const trials = readdirSync(jobsDir).flatMap((job) => listTrialDirs(path.join(jobsDir, job)));
    const files = trials.map((dir) => path.join(dir, 'trajectory.json'));
    const atif = await checkWithPython<Record<string, { schema_version: string; sources: string[]; tool_calls: number; observations: number; bytes: number }>>('atif', files);
    const agentOf = (dir: string) => path.basename(dir).split('__')[0]!.split('@')[0];
    const agents = new Set(trials.map(agentOf));
    expect([...agents].sort()).toEqual(expect.arrayContaining(['claude-code', 'codex', 'llm', 'oracle']));
    for (const file of files) expect(atif[file]!.schema_version).toBe('ATIF-v1.8');
    for (const agent of ['claude-code', 'codex']) {
      const [file, t] = Object.entries(atif).find(([f]) => agentOf(path.dirname(f)) === agent)!;
      // Each tool call of the model has its result, matched by id; the moves through the gateway are steps too.
      expect(t.observations).toBe(t.tool_calls);
      expect(t.sources).toContain('agent');
      console.log(`${agent}: ${path.basename(path.dirname(file))}/trajectory.json ${t.bytes} bytes, ${t.sources.length} steps`);
    }
    // Every job exported both ways; each trial's figures read back exactly as score.json holds them.
    type Sample = { trial_id: string; scores: Record<string, unknown>; roles: string[] };
    for (const job of readdirSync(jobsDir)) {
      const out = path.join(tmp.dir, 'export', job);
      expect(runAar(['export', path.join(jobsDir, job), '--format', 'inspect', '--out', path.join(out, 'inspect')]).status).toBe(0);
      expect(runAar(['export', path.join(jobsDir, job), '--format', 'harbor', '--out', path.join(out, 'harbor')]).status).toBe(0);
      const inspect = await checkWithPython<Record<string, { samples: Sample[] }>>('inspect', readdirSync(path.join(out, 'inspect')).map((f) => path.join(out, 'inspect', f)));
      const harbor = await checkWithPython<{ trials: Record<string, { rewards: Record<string, number> }> }>('harbor', [path.join(out, 'harbor')]);
      const samples = Object.values(inspect).flatMap((log) => log.samples);
      expect(samples).toHaveLength(listTrialDirs(path.join(jobsDir, job)).length);
      for (const sample of samples) {
        const trialDir = path.join(jobsDir, job, sample.trial_id);
        const score = JSON.parse(readFileSync(path.join(trialDir, 'score.json'), 'utf8')) as Record<string, unknown>;
        const figures = Object.fromEntries(Object.entries(score).filter(([, v]) => typeof v === 'number' || typeof v === 'boolean'));
        expect(Object.keys(figures)).toEqual(expect.arrayContaining(['success', 'steps', 'optimal_length', 'looped']));
        expect(sample.scores).toEqual({ wikirace: figures }); // the family's scorer, its figures as one value
        expect(harbor.trials[sample.trial_id]!.rewards).toEqual(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v)])));
        const agent = agentOf(trialDir);
        if (agent === 'llm') expect(sample.roles.filter((r) => r === 'user').length).toBe(modelCalls(trialDir));
        if (agent === 'claude-code' || agent === 'codex') expect(sample.roles).toEqual(expect.arrayContaining(['system', 'user', 'assistant', 'tool']));
      }
    }
  });
});

/** The model calls a trial made, as its model log counts them (the llm agent sends one prompt per call). */
function modelCalls(trialDir: string): number {
  return readFileSync(path.join(trialDir, 'model_log.jsonl'), 'utf8').split('\n').filter(Boolean).length;
}
