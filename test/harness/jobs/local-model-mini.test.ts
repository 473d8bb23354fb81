import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dockerAvailable } from '../../../common/docker.js';
import { modelHandlerFor } from '../../../harness/gateway/models/handler.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { loadJobResults } from '../../../verifier/results.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
import { smolLM2 } from '../../helpers/local-model.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;

jest.setTimeout(600_000);

describeDocker('mini-swe-agent on the local model (SmolLM2-135M, no keys)', () => {
  const tmp = tempDir('aar-local-mini-');
  afterAll(() => tmp.cleanup());

  test('mini-swe-agent 2.4.6 (its layer built from cached wheels) plays an example leg through litellm and the gateway: scored, the model log holds its real exchanges, the step budget stops a model that never submits', async () => {
    await smolLM2();
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const config = writeJobConfig(tmp.dir, {
        name: 'mini-local',
        tasks: { path: EXAMPLES_DIR, limit: 1 },
        agents: [{ name: 'mini-swe-agent', model: 'local:smollm2' }],
        budget: { steps: 2 },
        timeout_s: 420, // two ~3,000-token prompts: ~1 min on an idle 2-core machine, ~3 min at load 15
        resources: { memory_mb: 1024, cpus: 1, pids: 256 },
        models: { context_size: 4096, max_output_tokens: 48 },
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter(), retryDelayMs: 10 });
      expect(summary).toMatchObject({ planned: 1, ran: 1, infraErrors: 0 });
      const [result] = loadJobResults(summary.jobDir);
      // SmolLM2 never submits: the step budget (mini's step_limit is the trial's budget) ends its run.
      expect(result.record.status).toBe('completed');
      expect(result.record.run).toMatchObject({ steps: 2, step_limit_hit: true });
      expect(result.score).toMatchObject({ fa: 0 });
      const trajectory = JSON.parse(readFileSync(path.join(result.dir, 'agent', 'agent-logs', 'mini.traj.json'), 'utf8')) as { info: { exit_status: string }; messages: Array<{ extra?: { response?: { choices: Array<{ message: { content: string } }> } } }> };
      expect(trajectory.info.exit_status).toBe('LimitsExceeded');
      const log = readFileSync(path.join(result.dir, 'model_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown> & { request: { messages: Array<{ content: string }> }; response: { choices: Array<{ message: { content: string } }> } });
      expect(log.map((l) => [l.status, l.turn, l.api, l.model])).toEqual([1, 2].map((turn) => [200, turn, 'openai-chat', 'SmolLM2-135M-Instruct.Q4_1']));
      expect(log.every((l) => (l.output_tokens as number) > 0 && (l.output_tokens as number) <= 48)).toBe(true);
      // The model log holds the exchanges mini-swe-agent had: our instruction went in, the replies it recorded came out.
      expect(log[0].request.messages[0].content).toContain('scavenger-hunt puzzle');
      const replies = trajectory.messages.flatMap((m) => (m.extra?.response ? [m.extra.response.choices[0].message.content] : []));
      expect(replies).toEqual(log.map((l) => l.response.choices[0].message.content));
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
