import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
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

jest.setTimeout(300_000);

/**
 * A command agent that calls the local model with curl until the gateway refuses (`curl -f` fails on the
 * budget's 400, and the loop stops there: a loop that kept calling would run into the trial's timeout).
 */
const CURL_AGENT = [
  'i=0',
  'while [ $i -lt 50 ]; do',
  '  i=$((i+1))',
  `  body='{"model":"local:smollm2","max_tokens":8,"messages":[{"role":"user","content":"Name one digit."}]}'`,
  '  if ! curl -sS -f -m 60 -o /app/reply.json -H "authorization: Bearer $AAR_TRIAL_TOKEN" -H "content-type: application/json" -d "$body" "$AAR_GATEWAY_URL/openai/v1/chat/completions"; then',
  '    echo "the gateway refused call $i"; break',
  '  fi',
  '  cat /app/reply.json; echo',
  'done',
  'echo 3 > /app/answer.txt',
].join('\n');

describeDocker('a job on the local model (SmolLM2-135M, no keys)', () => {
  const tmp = tempDir('aar-local-job-');
  afterAll(() => tmp.cleanup());

  test('a command agent calling the model with curl: the trial ends scored, the model log holds the real exchanges, the budget stops it', async () => {
    await smolLM2();
    const saved = { a: process.env.ANTHROPIC_API_KEY, o: process.env.OPENAI_API_KEY };
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const config = writeJobConfig(tmp.dir, {
        name: 'curl-local',
        tasks: { path: EXAMPLES_DIR, limit: 1 },
        agents: [{ name: 'command', id: 'curl', options: { command: CURL_AGENT } }],
        budget: { steps: 3 },
        models: { provider: 'local', path: 'smollm2', context_size: 512 },
      });
      const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter(), retryDelayMs: 10 });
      expect(summary).toMatchObject({ planned: 1, ran: 1, infraErrors: 0 });
      const [result] = loadJobResults(summary.jobDir);
      expect(result.record.status).toBe('completed');
      expect(result.score).toMatchObject({ agent_answer: '3' });
      const stdout = readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8');
      expect(stdout).toContain('the gateway refused call 4');
      const log = readFileSync(path.join(result.dir, 'model_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(log.map((l) => [l.status, l.turn, l.budget_exceeded ?? false])).toEqual([[200, 1, false], [200, 2, false], [200, 3, false], [400, null, true]]);
      const replies = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { usage: { completion_tokens: number }; model: string });
      expect(replies).toHaveLength(3);
      expect(log.slice(0, 3).map((l) => l.output_tokens)).toEqual(replies.map((r) => r.usage.completion_tokens));
      expect(replies.every((r) => r.model === 'SmolLM2-135M-Instruct.Q4_1')).toBe(true);
    } finally {
      if (saved.a !== undefined) process.env.ANTHROPIC_API_KEY = saved.a;
      if (saved.o !== undefined) process.env.OPENAI_API_KEY = saved.o;
    }
  });

  test('the llm agent plays 3 WikiRace pairs on the local model: every trial ends scored, one logged model call per step', async () => {
    await smolLM2();
    const config = writeJobConfig(tmp.dir, {
      name: 'llm-local',
      tasks: { family: 'wikirace', path: path.join(REPO_ROOT, 'tasks', 'examples-wikirace'), ids: ['easy/001', 'easy/002', 'easy/003'] },
      agents: [{ name: 'llm', model: 'local:smollm2', options: { retries: 0 } }],
      tools: { mode: 'live' },
      timeout_s: 120,
      models: { context_size: 2048, parallel: 2, max_output_tokens: 24 },
    });
    const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter(), retryDelayMs: 10 });
    expect(summary).toMatchObject({ planned: 3, ran: 3, infraErrors: 0 });
    for (const result of loadJobResults(summary.jobDir)) {
      // A trial that did not complete shows its player's last words.
      const said = readFileSync(path.join(result.dir, 'agent', 'stderr.log'), 'utf8').slice(-1000);
      expect({ status: result.record.status, said }).toEqual({ status: 'completed', said: expect.any(String) });
      expect(result.score).toHaveProperty('success');
      const log = readFileSync(path.join(result.dir, 'model_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(log.length).toBeGreaterThan(0);
      expect(log.every((l) => l.api === 'openai-chat' && l.model === 'SmolLM2-135M-Instruct.Q4_1' && l.cost_usd === 0)).toBe(true);
      expect(log.filter((l) => l.status === 200).length).toBe(result.record.run.steps);
      expect(log.every((l) => (l.output_tokens as number) <= 24)).toBe(true);
      expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8')).toContain(`llm: ${result.record.run.steps} model calls`);
    }
  });

  test('Claude Code and Codex CLI on a local model whose context is too small for their prompts: each trial ends with the reason in its logs, no infrastructure error', async () => {
    await smolLM2();
    const config = writeJobConfig(tmp.dir, {
      name: 'frameworks-local',
      tasks: { path: EXAMPLES_DIR, limit: 1 },
      agents: [
        { name: 'claude-code', model: 'local:smollm2' },
        { name: 'codex', model: 'local:smollm2' },
      ],
      timeout_s: 120,
      resources: { memory_mb: 2048, cpus: 1, pids: 512 },
      models: { context_size: 2048, parallel: 2 },
    });
    const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter(), retryDelayMs: 10 });
    expect(summary).toMatchObject({ planned: 2, ran: 2, infraErrors: 0 });
    const said: Record<string, string> = {};
    for (const result of loadJobResults(summary.jobDir)) {
      expect(result.record.status).toBe('agent_error');
      expect(result.score).toMatchObject({ fa: 0, diagnosis: 'agent_error', status_reason: 'agent did not write /app/answer.txt' });
      const log = readFileSync(path.join(result.dir, 'model_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(log[0]).toMatchObject({ status: 400, error: 'upstream answered 400' });
      // trial.json itself says why: the model API's context-length message, as the framework received it.
      expect(result.record.model_errors).toMatchObject({ last_status: 400, last_message: expect.stringMatching(/context|too long/) });
      expect(result.record.model_errors!.calls).toBe(log.filter((l) => l.status === 400).length);
      said[result.record.agent.name] = readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8');
    }
    expect(said['claude-code']).toMatch(/Prompt is too long/);
    expect(said.codex).toMatch(/context window|context length/);
  });
});
