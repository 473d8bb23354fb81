import { jest } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { textLines } from '../../../trial/log-lines.js';
import { AtifTrajectorySchema, buildTrajectory, trajectoryOfFolder, writeTrajectory, type AtifTrajectory } from '../../../trial/trajectory/index.js';
import { TEXT_MAX_CHARS } from '../../../trial/trajectory/build.js';
import { tempDir } from '../../helpers/data.js';
// The built-in model APIs register their transcript readers (each beside its routes).
import '../../../harness/gateway/models/apis/registry.js';
import { checkWithPython } from '../../helpers/python-tools.js';

jest.setTimeout(15 * 60_000);
const tmp = tempDir('aar-trajectory-');
afterAll(() => tmp.cleanup());

const T0 = 1795744000;
const jsonl = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const entry = (api: string, ts: number, turn: number, extra: Record<string, unknown>) => ({
  ts, api, model: 'm-1', stream: true, status: 200, turn, input_tokens: 100, output_tokens: 10, cached_tokens: 40, cache_write_tokens: 0, cost_usd: 0.001, latency_ms: 500, attempts: 1, ...extra,
});
const toolLine = (ts: number, tool: string, args: unknown, preview: string) => ({ tool, args, success: true, result_preview: preview, result_len: preview.length, ts, latency_ms: 3, source: 'store', cache_hit: false, truncated: false, full_len: preview.length });
const agent = { name: 'claude-code', version: '2.0.0', model: 'm-1' };
const build = (modelLog: string | null, toolLog: string | null, instruction: string | null = 'Solve the leg.') =>
  buildTrajectory({ trialId: 't1', agent, instruction, modelLog: modelLog === null ? null : textLines(modelLog), toolLog: toolLog === null ? null : textLines(toolLog) });

/** Claude Code's shape: Anthropic Messages, the conversation growing, a Bash tool call whose command called a gateway tool. */
const ANTHROPIC_LOG = jsonl([
  entry('anthropic-messages', T0 + 1, 1, {
    request: { system: [{ type: 'text', text: 'You are an agent.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Solve the leg.', cache_control: { type: 'ephemeral' } }] }] },
    tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object' } }],
    tools_sha256: 'ab',
    response: { content: [{ type: 'thinking', thinking: 'Fetch the page first.' }, { type: 'text', text: 'Reading the page.' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'tools fetch_webpage' } }] },
  }),
  entry('anthropic-count-tokens', T0 + 1.5, 0, { request: { messages: [] } }),
  entry('anthropic-messages', T0 + 3, 2, {
    request: {
      system: [{ type: 'text', text: 'You are an agent.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Solve the leg.' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'tools fetch_webpage' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '# Apple Inc.' }], cache_control: { type: 'ephemeral' } }] },
      ],
    },
    response: { content: [{ type: 'text', text: 'The passcode is 8.' }] },
  }),
]);

describe('trajectory.json: built from the model log and the tool log', () => {
  test('Anthropic: system, user, agent steps in time order; the tool result is the observation of the call with its id; a gateway call between turns is its own step', () => {
    const t = build(ANTHROPIC_LOG, jsonl([toolLine(T0 + 2, 'fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Apple_Inc.' }, '# Apple Inc.')]));
    expect(AtifTrajectorySchema.parse(t)).toBeTruthy();
    expect(t.steps.map((s) => `${s.source}:${s.llm_call_count ?? '-'}`)).toEqual(['system:-', 'user:-', 'agent:1', 'agent:0', 'agent:1']);
    const [, user, first, gateway, last] = t.steps;
    expect(user!.message).toBe('Solve the leg.');
    expect(first).toMatchObject({ message: 'Reading the page.', reasoning_content: 'Fetch the page first.', tool_calls: [{ tool_call_id: 'toolu_1', function_name: 'Bash', arguments: { command: 'tools fetch_webpage' } }] });
    expect(first!.observation!.results).toEqual([{ source_call_id: 'toolu_1', content: '# Apple Inc.' }]);
    expect(first!.metrics).toEqual({ prompt_tokens: 100, completion_tokens: 10, cached_tokens: 40, cost_usd: 0.001 });
    expect(gateway).toMatchObject({ tool_calls: [{ tool_call_id: 'tool_log_1', function_name: 'fetch_webpage' }], observation: { results: [{ source_call_id: 'tool_log_1', content: '# Apple Inc.' }] }, extra: { tool_log_line: 1 } });
    expect(last!.message).toBe('The passcode is 8.');
    expect(t.agent.tool_definitions).toEqual([{ type: 'function', function: { name: 'Bash', description: 'Run a command', parameters: { type: 'object' } } }]);
    expect(t.final_metrics).toMatchObject({ total_prompt_tokens: 200, total_completion_tokens: 20, total_cached_tokens: 80, total_cost_usd: 0.002, total_steps: 5, extra: { model_calls: 2, tool_calls: 1 } });
    expect(t.notes).toBeUndefined();
  });

  test('OpenAI Responses (Codex) and Chat Completions (the llm agent): instructions, function calls and outputs by call_id, reasoning summaries', () => {
    const responses = build(
      jsonl([
        entry('openai-responses', T0 + 1, 1, {
          request: { instructions: 'You are Codex.', input: [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Solve.' }] }] },
          response: { output: [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }] }, { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"tools wikirace_state"}' }] },
        }),
        entry('openai-responses', T0 + 2, 2, {
          request: { instructions: 'You are Codex.', input: [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Solve.' }] }, { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: 'Current page: Page 1' }] },
          response: { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }] },
        }),
      ]),
      null,
    );
    expect(responses.steps.map((s) => s.source)).toEqual(['system', 'system', 'user', 'agent', 'agent']);
    expect(responses.steps[3]).toMatchObject({ reasoning_content: 'Plan.', tool_calls: [{ tool_call_id: 'call_1', function_name: 'exec_command', arguments: { cmd: 'tools wikirace_state' } }], observation: { results: [{ source_call_id: 'call_1', content: 'Current page: Page 1' }] } });
    const chat = build(
      jsonl([
        entry('openai-chat', T0 + 1, 1, { request: { messages: [{ role: 'user', content: 'Step 1: pick a link.' }] }, response: { choices: [{ message: { role: 'assistant', content: 'I am not sure.' } }] } }),
        entry('openai-chat', T0 + 3, 2, { request: { messages: [{ role: 'user', content: 'Step 1: pick a link.' }] }, response: { choices: [{ message: { role: 'assistant', content: '\\boxed{Page 2}', reasoning_content: 'Page 2 is closer.' } }] } }),
      ]),
      jsonl([toolLine(T0 + 4, 'wikirace_move', { page: 'Page 2' }, 'moved')]),
    );
    // The same prompt sent again (a retry) is a step again: every request's last message is new.
    expect(chat.steps.map((s) => `${s.source}:${s.message}`)).toEqual(['user:Step 1: pick a link.', 'agent:I am not sure.', 'user:Step 1: pick a link.', 'agent:\\boxed{Page 2}', 'agent:wikirace_move (through the tool gateway)']);
    expect(chat.steps[3]!.reasoning_content).toBe('Page 2 is closer.');
  });

  test('a built-in agent (no model log): the instruction, then its tool calls; nothing at all gives one step saying so', () => {
    const oracle = build(null, jsonl([toolLine(T0, 'fetch_webpage', { url: 'u' }, 'page'), toolLine(T0 + 1, 'python_execute_code', 'not an object', 'out')]));
    expect(oracle.steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(oracle.steps[2]!.tool_calls![0]!.arguments).toEqual({ value: 'not an object' });
    expect(build(null, null, null).steps).toEqual([{ step_id: 1, source: 'system', message: 'no model call and no tool call was logged for this trial' }]);
  });

  test('malformed and hostile logs give a trajectory that says so, never an error; texts are cut', () => {
    const huge = 'x'.repeat(TEXT_MAX_CHARS + 10);
    const t = build(
      jsonl(['not json', { ts: 'yesterday' }, entry('anthropic-messages', T0, 1, { request: { messages: [{ role: 'user', content: huge }] }, response: { content: 'not blocks' } }), entry('anthropic-messages', T0 + 1, 2, { status: 429, error: 'budget exhausted' }), entry('anthropic-messages', T0 + 2, 3, { conversation_not_logged: 'the model log reached its cap' })]),
      jsonl(['{"tool": 5}', toolLine(T0 + 0.5, 'x', { deep: [[[[1]]]] }, 'ok')]),
    );
    expect(AtifTrajectorySchema.parse(t)).toBeTruthy();
    expect(t.notes).toContain('model_log.jsonl line 1: not JSON; left out');
    expect(t.notes).toContain('model_log.jsonl line 2: ts:');
    expect(t.notes).toContain('tool_log.jsonl line 1: tool:');
    expect(t.notes).toContain('1 texts cut');
    expect(t.steps[0]!.message.length).toBeLessThan(TEXT_MAX_CHARS + 100);
    expect(t.steps.map((s) => s.message).slice(-2)).toEqual(['[the model call ended with HTTP 429: budget exhausted]', '[the model log reached its cap]']);
    expect(t.final_metrics!.extra).toMatchObject({ model_log_lines_left_out: 2, tool_log_lines_left_out: 1 });
  });

  test('a folder whose log cannot be read at all still gets a trajectory (one step naming why)', () => {
    const dir = path.join(tmp.dir, 'broken');
    mkdirSync(path.join(dir, 'model_log.jsonl'), { recursive: true });
    const t = trajectoryOfFolder(dir, 't1', agent);
    expect(t.steps).toHaveLength(1);
    expect(t.steps[0]!.message).toMatch(/^\[no trajectory: the logs could not be read into a trajectory: .*model_log\.jsonl: a folder, not a file\]$/);
    expect(t.extra).toMatchObject({ malformed: true });
  });

  test("every shape above is valid for Harbor's own Trajectory model (harbor from PyPI, in a throwaway venv)", async () => {
    const cases: Record<string, AtifTrajectory> = {
      anthropic: build(ANTHROPIC_LOG, jsonl([toolLine(T0 + 2, 'fetch_webpage', { url: 'u' }, 'p')])),
      builtin: build(null, jsonl([toolLine(T0, 'fetch_webpage', { url: 'u' }, 'page')])),
      empty: build(null, null, null),
      malformed: build(jsonl(['not json', entry('anthropic-messages', T0, 1, { status: 500 })]), null),
    };
    const files = Object.entries(cases).map(([name, t]) => {
      const dir = path.join(tmp.dir, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'model_log.jsonl'), '');
      writeFileSync(path.join(dir, 'trajectory.json'), JSON.stringify(t));
      return path.join(dir, 'trajectory.json');
    });
    const broken = path.join(tmp.dir, 'broken');
    writeTrajectory(broken, 't1', agent);
    files.push(path.join(broken, 'trajectory.json'));
    const checked = await checkWithPython<Record<string, { schema_version: string; steps: number }>>('atif', files);
    for (const file of files) expect(checked[file]).toMatchObject({ schema_version: 'ATIF-v1.8' });
    expect(checked[files[0]!]!.steps).toBe(5);
  });
});
