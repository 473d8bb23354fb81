import { WIKIRACE_TRIAL_FILES } from '../../../tasks/wikirace/trial-files.js';
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { modelHandlerFor } from '../../../harness/gateway/models/handler.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { parseTrajectory } from '../../../tasks/wikirace/game/trajectory.js';
import type { LoadedPair } from '../../../tasks/wikirace/load.js';
import { oraclePlan } from '../../../tasks/wikirace/oracle-plan.js';
import { taskFamily } from '../../../tasks/registry.js';
import type { GameScore } from '../../../tasks/wikirace/scoring/score.js';
import { readTrialText, TRIAL_FILES } from '../../../trial/folder.js';
import { loadJobResults, type TrialResult } from '../../../verifier/results.js';
import { startScriptedModelServer, type ScriptTurn } from '../../doubles/scripted-model/index.js';
import { REPO_ROOT } from '../../helpers/data.js';
import { wikiraceJobSetup } from '../../helpers/wikirace-job.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('WikiRace move-limit tests skipped: no Docker engine answers (run images/docker-up.sh)');
jest.setTimeout(20 * 60_000);

const HOST_KEY = 'sk-wikirace-moves-key';
/**
 * A pair no player here reaches: in the test graph only `Page 5` links to `Hub`, and every player below
 * never chooses `Page 5`. Each spends more model calls than moves (a retry, or a look at the state before
 * each move), so a model-call cap equal to the move limit would end it early.
 */
const PAIR = { split: 'easy', source: 'Page 1', target: 'Hub' } as const;
const AVOID = 'Page 5';

const { writeConfig } = wikiraceJobSetup('aar-wikirace-moves-', [PAIR], {
  timeout_s: 600,
  concurrency: 1,
  resources: { memory_mb: 4096, cpus: 2, pids: 1024 },
}, () => {
  process.env.ANTHROPIC_API_KEY = HOST_KEY;
  process.env.OPENAI_API_KEY = HOST_KEY;
});

/** The llm agent's replies: an unparseable one first at every step (asked again), then the first listed link but AVOID. */
function llmReply(body: Record<string, unknown>, turn: number): ScriptTurn {
  if (turn % 2 === 0) return { text: 'Let me think about which link is closest.' };
  const prompt = String((body.messages as { content: string }[])[0]!.content);
  const links = prompt.split('Links on the current page:\n')[1]!.split('\n\n')[0]!.split('\n').map((l) => l.replace(/^\d+\. /, ''));
  return { text: `\\boxed{${links.find((l) => l !== AVOID)}}` };
}

/** One moves-and-calls line for the report, and the trial's files agreeing with its score. */
function describeTrial(agent: string, result: TrialResult<GameScore>): string {
  const score = result.score!;
  // eslint-disable-next-line no-console
  console.log(`${agent}: status ${result.record.status}, moves ${score.steps}, gateway model calls ${result.record.run.steps} of step_budget ${result.record.step_budget}`);
  const moves = parseTrajectory(readTrialText(result.dir, WIKIRACE_TRIAL_FILES.trajectory) ?? '');
  expect(moves).toHaveLength(score.steps);
  expect(moves.every((m) => m.to !== PAIR.target && m.to !== AVOID)).toBe(true);
  const line = `${agent}: status ${result.record.status}, moves ${score.steps} of ${score.move_limit}, model calls ${score.model_calls} of ${score.model_call_budget} (step_budget ${result.record.step_budget}), end ${score.end}`;
  // eslint-disable-next-line no-console
  console.log(line);
  return line;
}

(HAVE_DOCKER ? describe : describe.skip)('WikiRace: 30 moves for every player, the model calls counted apart', () => {
  test('llm: a retry before every move still leaves it all 30 moves (60 model calls of 90)', async () => {
    const server = await startScriptedModelServer({ script: [{ text: 'unused' }], requireKey: HOST_KEY, turns: 'sequence', respond: llmReply });
    try {
      const config = writeConfig('llm-moves', { agents: [{ name: 'llm', model: 'claude-sonnet-4-6' }], models: { anthropic_base_url: server.anthropicBaseUrl } });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
      const [result] = loadJobResults<GameScore>(summary.jobDir);
      describeTrial('llm', result!);
      expect(result!.record).toMatchObject({ status: 'completed', step_budget: 90 });
      expect(result!.score).toMatchObject({ success: 0, steps: 30, move_limit: 30, model_calls: 60, model_call_budget: 90, end: 'move_limit' });
      expect(server.served.turns).toBe(60);
      expect(readFileSync(path.join(result!.dir, 'agent', 'stdout.log'), 'utf8')).toContain('llm: 60 model calls');
    } finally {
      await server.stop();
    }
  });

  test('llm: a model-call budget smaller than the moves need ends the game and the score says so', async () => {
    const server = await startScriptedModelServer({ script: [{ text: 'unused' }], requireKey: HOST_KEY, turns: 'sequence', respond: llmReply });
    try {
      const config = writeConfig('llm-calls-out', {
        agents: [{ name: 'llm', model: 'claude-sonnet-4-6' }],
        models: { anthropic_base_url: server.anthropicBaseUrl },
        budget: { steps: 41 },
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
      const [result] = loadJobResults<GameScore>(summary.jobDir);
      describeTrial('llm, budget.steps 41', result!);
      expect(result!.record).toMatchObject({ step_budget: 41, run: { steps: 41, step_limit_hit: true } });
      expect(result!.score).toMatchObject({ success: 0, steps: 20, move_limit: 30, model_calls: 41, model_call_budget: 41, end: 'model_calls' });
      expect(readFileSync(path.join(result!.dir, 'agent', 'stdout.log'), 'utf8')).toContain('llm: the model-call budget is used up after 41 calls and 20 moves');
    } finally {
      await server.stop();
    }
  });

  // Each turn is a shell command: a look at the state, then a move to the first offered link but AVOID.
  const look = 'tools wikirace_state';
  const move = `p=$(tools wikirace_state | sed '1,/^Available links/d' | grep -vx '${AVOID}' | head -n 1); tools wikirace_move "{\\"page\\": \\"$p\\"}"`;
  const frameworkScript: ScriptTurn[] = [...Array.from({ length: 30 }, (): ScriptTurn[] => [{ bash: look }, { bash: move }]).flat(), { text: 'All moves are used.' }];

  test.each([
    ['claude-code', 'claude-sonnet-4-6'],
    ['codex', 'gpt-5.4'],
  ])('%s: a state call before every move still leaves it all 30 moves', async (agent, model) => {
    const server = await startScriptedModelServer({ script: frameworkScript, requireKey: HOST_KEY });
    try {
      const config = writeConfig(`${agent}-moves`, { agents: [{ name: agent, model }], models: { anthropic_base_url: server.anthropicBaseUrl, openai_base_url: server.openaiBaseUrl } });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
      const [result] = loadJobResults<GameScore>(summary.jobDir);
      describeTrial(agent, result!);
      expect(result!.record).toMatchObject({ status: 'completed', step_budget: 90 });
      expect(result!.score).toMatchObject({ success: 0, steps: 30, move_limit: 30, model_call_budget: 90, end: 'move_limit' });
      expect(result!.score!.model_calls).toBe(server.served.turns);
      expect(server.served.turns).toBeGreaterThanOrEqual(61);
    } finally {
      await server.stop();
    }
  });
});

/** The committed example pairs whose source or target ends in "." or starts with a quote. */
const ODD_PAIRS = ['hard/004', 'medium/001', 'medium/003', 'medium/005'];

(HAVE_DOCKER ? describe : describe.skip)('WikiRace: titles that end in "." or start with a quote', () => {
  test('llm reaches example targets such as "Sty" Hitrath and Zelinain F.C. when the model names them exactly', async () => {
    const examples = path.join(REPO_ROOT, 'tasks', 'examples-wikirace');
    const { tasks } = await taskFamily('wikirace').load([examples]);
    const pairs = (tasks as LoadedPair[]).filter((t) => ODD_PAIRS.includes(t.id));
    expect(pairs.map((p) => [p.pair.source, p.pair.target].some((t) => t.endsWith('.') || t.startsWith('"')))).toEqual([true, true, true, true]);
    const plans = new Map(pairs.map((p) => [p.pair.target, oraclePlan(p.world, p.pair)]));
    // The model answers a link on a shortest path, exactly as listed, boxed.
    const respond = (body: Record<string, unknown>): ScriptTurn => {
      const prompt = String((body.messages as { content: string }[])[0]!.content);
      const field = (name: string): string => new RegExp(`^${name}: (.*)$`, 'm').exec(prompt)![1]!;
      const plan = plans.get(field('Target page'))!;
      const links = prompt.split('Links on the current page:\n')[1]!.split('\n\n')[0]!.split('\n').map((l) => l.replace(/^\d+\. /, ''));
      return { text: `\\boxed{${links.find((l) => plan[l] === plan[field('Current page')]! - 1)}}` };
    };
    const server = await startScriptedModelServer({ script: [{ text: 'unused' }], requireKey: HOST_KEY, turns: 'sequence', respond });
    try {
      const config = writeConfig('llm-odd-titles', {
        tasks: { family: 'wikirace', path: examples, ids: ODD_PAIRS },
        agents: [{ name: 'llm', model: 'claude-sonnet-4-6', options: { thinking: 2048, max_tokens: 6000 } }],
        models: { anthropic_base_url: server.anthropicBaseUrl },
        concurrency: 2,
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
      const results = loadJobResults<GameScore>(summary.jobDir);
      expect(results).toHaveLength(4);
      for (const r of results) {
        // eslint-disable-next-line no-console
        console.log(`llm on ${r.record.leg.id}: success ${r.score!.success}, moves ${r.score!.steps} (optimal ${r.score!.optimal_length}), model calls ${r.score!.model_calls}, end ${r.score!.end}`);
        expect(r.score).toMatchObject({ success: 1, suboptimal_steps: 0, end: 'target' });
        expect(r.score!.model_calls).toBe(r.score!.steps);
      }
      // The thinking setting and the reply cap reach the model.
      const sent = server.requests.map((q) => q.body as Record<string, unknown>);
      expect(sent.every((b) => b.max_tokens === 6000 && JSON.stringify(b.thinking) === '{"type":"enabled","budget_tokens":2048}')).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
