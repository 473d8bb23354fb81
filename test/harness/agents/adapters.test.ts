import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { claudeCodeAgent, readClaudeStream } from '../../../harness/agents/claude-code/adapter.js';
import { codexAgent, codexConfig, readCodexEvents } from '../../../harness/agents/codex/adapter.js';
import { miniSweAgent, readMiniTrajectory } from '../../../harness/agents/mini-swe-agent/adapter.js';
import { agentAdapter, agentFamilyProblem, AGENT_NAMES } from '../../../harness/agents/registry.js';
import type { AgentContext } from '../../../harness/agents/types.js';
import { aarFamily } from '../../../tasks/aar/family.js';
import { loadLegFile } from '../../../tasks/aar/load.js';
import { EXAMPLES_DIR, REPO_ROOT } from '../../helpers/data.js';

/** Logs the real binaries wrote in a trial (npm run e2e:agents -- --save-fixtures). */
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'agents');
const fixture = (...p: string[]) => readFileSync(path.join(FIXTURES, ...p), 'utf8');
const served = (agent: string) => JSON.parse(fixture(agent, 'served.json')) as { turns: number; inputTokens: number; outputTokens: number; cachedTokens: number };

const { legs } = loadLegFile(path.join(EXAMPLES_DIR, 'examples-linear/easy/sample_003.json'));
const context = (name: string, extra: Partial<AgentContext['agent']> = {}): AgentContext => ({
  trialId: `${name}__t__1`,
  family: aarFamily,
  task: legs[0],
  instruction: 'instruction',
  stepBudget: 10,
  agent: { name, flags: [], env: {}, options: {}, ...extra },
  seed: 1,
  gatewayUrl: 'http://127.0.0.1:8900',
  token: 'aar-trial-token',
});

describe('the agent registry', () => {
  test('knows the built-ins and the three frameworks of the paper', () => {
    expect(AGENT_NAMES).toEqual(expect.arrayContaining(['claude-code', 'codex', 'command', 'llm', 'mini-swe-agent', 'oracle', 'random']));
    expect(() => agentAdapter('gemini')).toThrow("unknown agent 'gemini'; known: ");
  });

  test('each agent declares the task families it plays: llm plays wikirace only', () => {
    for (const name of ['oracle', 'random', 'command', 'claude-code', 'codex', 'mini-swe-agent']) expect(agentAdapter(name).families).toBe('any');
    expect(agentAdapter('llm').families).toEqual(['wikirace']);
    expect(agentFamilyProblem('llm', 'aar')).toBe('the llm agent plays the wikirace family only, not aar (tasks.family)');
    expect(agentFamilyProblem('llm', 'wikirace')).toBeUndefined();
    expect(agentFamilyProblem('oracle', 'aar')).toBeUndefined();
    expect(agentFamilyProblem('gemini', 'aar')).toBeUndefined();
  });
});

describe('claude-code', () => {
  test('reads turns, tokens and cost from the stream-json Claude Code wrote', () => {
    const facts = readClaudeStream(fixture('claude-code', 'agent', 'stdout.log'));
    const s = served('claude-code');
    expect(facts).toEqual({ steps: s.turns, inputTokens: s.inputTokens, outputTokens: s.outputTokens, cachedTokens: s.cachedTokens, costUsd: expect.any(Number), stepLimitHit: false });
    const cut = fixture('claude-code', 'agent', 'stdout.log').replace('"subtype":"success"', '"subtype":"error_max_turns"');
    expect(readClaudeStream(cut).stepLimitHit).toBe(true);
    expect(readClaudeStream('not json\n')).toEqual({});
  });
  test('runs headless with the budget as max turns and the gateway as its API', () => {
    const launch = claudeCodeAgent.launch(context('claude-code', { model: 'claude-haiku-4-5', flags: ['--append-system-prompt', "be brief, it's fine"] })) as Awaited<ReturnType<typeof claudeCodeAgent.launch>>;
    const shell = launch.command[2];
    expect(launch.command.slice(0, 2)).toEqual(['sh', '-c']);
    expect(shell).toContain('claude --output-format stream-json --verbose --dangerously-skip-permissions --max-turns 10 --model claude-haiku-4-5');
    expect(shell).toContain(`--append-system-prompt 'be brief, it'\\''s fine'`);
    expect(shell).toMatch(/-p "\$\(cat \/app\/instruction\.md\)" < \/dev\/null$/);
    expect(launch.env).toMatchObject({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:8900/anthropic', ANTHROPIC_API_KEY: 'aar-trial-token', IS_SANDBOX: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' });
    expect(launch.logDirs).toEqual(['/root/.claude/projects']);
    expect(claudeCodeAgent.buildArgs!({ name: 'claude-code', flags: [], env: {}, options: {} })).toEqual({ CLAUDE_CODE_VERSION: '2.1.332' });
  });
  test('what Claude Code sends: streaming Messages requests with its Bash tool', () => {
    const requests = JSON.parse(fixture('claude-code', 'requests.json')) as Array<{ path: string; body: Record<string, unknown> }>;
    expect(requests.map((r) => r.path)).toEqual(Array(served('claude-code').turns).fill('/v1/messages?beta=true'));
    const body = requests[0].body as { stream: boolean; model: string; tools: Array<{ name: string; input_schema: { properties: Record<string, unknown> } }> };
    expect(body.stream).toBe(true);
    expect(body.model).toBe('claude-sonnet-4-6');
    expect(Object.keys(body.tools.find((t) => t.name === 'Bash')!.input_schema.properties)).toContain('command');
  });
});

describe('codex', () => {
  test('reads token usage from the events codex exec --json printed', () => {
    const s = served('codex');
    expect(readCodexEvents(fixture('codex', 'agent', 'stdout.log'))).toEqual({ inputTokens: s.inputTokens, cachedTokens: s.cachedTokens, outputTokens: s.outputTokens });
  });
  test('runs codex exec with a model provider whose base URL is the gateway', () => {
    const launch = codexAgent.launch(context('codex')) as Awaited<ReturnType<typeof codexAgent.launch>>;
    expect(launch.command[2]).toMatch(/^exec codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "\$\(cat \/app\/instruction\.md\)" < \/dev\/null$/);
    const config = launch.files.find((f) => f.path === '/root/.codex/config.toml')!.content as string;
    expect(config).toBe(codexConfig('gpt-5.4', 'http://127.0.0.1:8900'));
    expect(config).toContain('base_url = "http://127.0.0.1:8900/openai/v1"');
    expect(config).toContain('env_key = "AAR_TRIAL_TOKEN"');
    expect(config).toMatch(/\[analytics\]\nenabled = false/);
    expect(launch.logDirs).toEqual(['/root/.codex/sessions']);
  });
  test('what Codex sends: streaming Responses requests with its exec_command tool', () => {
    const requests = JSON.parse(fixture('codex', 'requests.json')) as Array<{ path: string; body: Record<string, unknown> }>;
    expect(requests.map((r) => r.path)).toEqual(Array(served('codex').turns).fill('/v1/responses'));
    const body = requests[0].body as { stream: boolean; store: boolean; tools: Array<{ name?: string; parameters?: { properties: Record<string, unknown> } }> };
    expect(body).toMatchObject({ stream: true, store: false });
    expect(Object.keys(body.tools.find((t) => t.name === 'exec_command')!.parameters!.properties)).toContain('cmd');
    const last = requests.at(-1)!.body as { input: Array<{ type?: string }> };
    expect(last.input.filter((i) => i.type === 'function_call_output')).toHaveLength(3);
  });
});

describe('mini-swe-agent', () => {
  test('reads calls, tokens and exit status from its trajectory file', () => {
    expect(readMiniTrajectory(fixture('mini-swe-agent', 'last.traj.json'))).toEqual({ steps: 4, costUsd: null, stepLimitHit: false, inputTokens: 4060, outputTokens: 200, cachedTokens: 600 });
    expect(readMiniTrajectory(fixture('mini-swe-agent', 'limits.traj.json'))).toMatchObject({ steps: 10, stepLimitHit: true });
    expect(readMiniTrajectory('{')).toEqual({});
  });
  test('runs mini with its default config first, ours on top, and the step limit B', () => {
    const launch = miniSweAgent.launch(context('mini-swe-agent', { model: 'gpt-5.4-mini' })) as Awaited<ReturnType<typeof miniSweAgent.launch>>;
    expect(launch.command[2]).toBe(
      `exec mini -y --exit-immediately -o /app/agent-logs/mini.traj.json -c mini.yaml -c /opt/aar/mini-aar.yaml -c agent.step_limit=10 -t "$(cat /app/instruction.md)" < /dev/null`,
    );
    const config = parse(launch.files[0].content as string);
    expect(config.agent).toMatchObject({ step_limit: 10, cost_limit: 0, mode: 'yolo', confirm_exit: false });
    expect(config.agent.instance_template).toContain('{{task}}');
    expect(config.agent.instance_template).toContain('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
    expect(config.model).toEqual({ model_name: 'openai/gpt-5.4-mini', cost_tracking: 'ignore_errors', model_kwargs: { api_base: 'http://127.0.0.1:8900/openai/v1', api_key: 'aar-trial-token', drop_params: true } });
    expect(launch.env).toMatchObject({ MSWEA_CONFIGURED: 'true', OPENAI_API_KEY: 'aar-trial-token' });
    expect(miniSweAgent.buildArgs!({ name: 'mini-swe-agent', flags: [], env: {}, options: {} })).toEqual({ MINI_SWE_AGENT_VERSION: '2.4.6', PIP_REQUIREMENTS: 'mini-swe-agent==2.4.6' });
    expect(miniSweAgent.hostKeys).toEqual(['OPENAI_API_KEY']);
  });
});
