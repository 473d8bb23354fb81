import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { dockerAvailable } from '../../../common/docker.js';
import { modelHandlerFor } from '../../../harness/gateway/models/handler.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { loadJobResults } from '../../../verifier/results.js';
import { EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
import { smolLM2 } from '../../helpers/local-model.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;

jest.setTimeout(600_000);

describeDocker('mini-swe-agent on the local model (SmolLM2-135M, no keys)', () => {
  const tmp = tempDir('aar-local-mini-');
  afterAll(() => tmp.cleanup());

  test('mini-swe-agent 2.4.6 (its layer built from cached wheels) plays an example leg through litellm and the gateway with configs/local-model-legs.yaml\'s settings: SmolLM2 makes real bash tool calls that run in the container, the model log holds the exchanges, the step budget ends the run', async () => {
    await smolLM2();
    // The shipped demo's agent and model settings (issue 35: before them, every reply was cut at 64 tokens and no call ran).
    const shipped = parse(readFileSync(path.join(REPO_ROOT, 'configs', 'local-model-legs.yaml'), 'utf8')) as { agents: Record<string, unknown>[]; models: Record<string, unknown>; budget: { steps: number } };
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const config = writeJobConfig(tmp.dir, {
        name: 'mini-local',
        tasks: { path: EXAMPLES_DIR, limit: 1 },
        agents: shipped.agents,
        budget: shipped.budget,
        timeout_s: 600, // two ~3,000-token prompts: ~1 min on an idle 2-core machine, ~5 min at load 20
        resources: { memory_mb: 1024, cpus: 1, pids: 256 },
        models: shipped.models,
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter(), retryDelayMs: 10 });
      expect(summary).toMatchObject({ planned: 1, ran: 1, infraErrors: 0 });
      const [result] = loadJobResults(summary.jobDir);
      // SmolLM2 never submits: the step budget (mini's step_limit is the trial's budget) ends its run.
      expect(result.record.status).toBe('completed');
      expect(result.record.run).toMatchObject({ steps: shipped.budget.steps, step_limit_hit: true });
      expect(result.score).toMatchObject({ fa: 0, step_limit_hit: true });
      type Message = { role: string; content?: unknown; tool_calls?: Array<{ function: { name: string; arguments: string } }> };
      const trajectory = JSON.parse(readFileSync(path.join(result.dir, 'agent', 'agent-logs', 'mini.traj.json'), 'utf8')) as { info: { exit_status: string }; messages: Message[] };
      expect(trajectory.info.exit_status).toBe('LimitsExceeded');
      // Every turn is a bash call mini-swe-agent ran in the container; its output came back as the next message.
      const calls = trajectory.messages.flatMap((m) => m.tool_calls ?? []);
      expect(calls.length).toBe(shipped.budget.steps);
      for (const call of calls) expect(call.function.name).toBe('bash');
      const outputs = trajectory.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      expect(outputs.length).toBe(shipped.budget.steps);
      for (const output of outputs) expect(output).toMatch(/"returncode": \d+/);
      const log = readFileSync(path.join(result.dir, 'model_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown> & { request: { messages: Array<{ content: string }>; tool_choice?: string }; response: { choices: Array<{ finish_reason: string; message: { tool_calls?: Array<{ function: { arguments: string } }> } }> } });
      expect(log.map((l) => [l.status, l.turn, l.api, l.model])).toEqual([1, 2].map((turn) => [200, turn, 'openai-chat', 'SmolLM2-135M-Instruct.Q4_1']));
      // The model log holds the exchanges mini-swe-agent had: our instruction and the forced choice went in, the calls it ran came out.
      expect(log[0].request.messages[0].content).toContain('scavenger-hunt puzzle');
      expect(log.map((l) => l.request.tool_choice)).toEqual(['required', 'required']);
      expect(log.map((l) => l.response.choices[0].finish_reason)).toEqual(['tool_calls', 'tool_calls']);
      expect(log.map((l) => l.response.choices[0].message.tool_calls![0].function.arguments)).toEqual(calls.map((c) => c.function.arguments));
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
