import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SecretMask } from '../../../../common/secrets.js';
import { ConversationLog } from '../../../../harness/gateway/models/conversation.js';
import type { ModelLogEntry } from '../../../../harness/gateway/models/model-log.js';
import { buildConversation, mergeByTime, modelSteps, PART_CHARS, readModelLog, toolSteps } from '../../../../verifier/html/conversation/timeline.js';
import { REPO_ROOT, tempDir } from '../../../helpers/data.js';

/** The requests Claude Code and Codex sent in the e2e run (test/fixtures/agents/), logged as the gateway logs them. */
const fixture = (agent: string) =>
  (JSON.parse(readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'agents', agent, 'requests.json'), 'utf8')) as { body: Record<string, unknown>; turn?: number }[]).filter((r) => r.turn !== undefined);

const entry = (ts: number, turn: number): ModelLogEntry => ({
  ts, api: 'anthropic-messages', model: 'm', stream: false, status: 200, turn, input_tokens: 10, output_tokens: 5, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0.001, latency_ms: 3, attempts: 1,
});

function logLines(requests: { body: Record<string, unknown> }[], response: (i: number) => unknown): string[] {
  const log = new ConversationLog();
  const secrets = new SecretMask().add('sk-host-key-123');
  return requests.map((r, i) => log.line(entry(100 + i, i + 1), { request: r.body, response: response(i) }, secrets).trimEnd());
}

describe('the conversation of a trial page (verifier/html/conversation/)', () => {
  test("Claude Code's requests: the system prompt once, then only what each request adds; its answers with thinking apart", () => {
    const requests = fixture('claude-code');
    const lines = logLines(requests, (i) => ({ type: 'message', role: 'assistant', content: [{ type: 'thinking', thinking: `think ${i}` }, { type: 'text', text: `say ${i}` }] }));
    const steps = modelSteps(lines);
    expect(steps.map((s) => s.line)).toEqual([1, 2, 3, 4]);
    expect(steps[0].system).toContain('Claude');
    expect(steps.slice(1).every((s) => s.system === null)).toBe(true);
    expect(steps[0].tools).toContain('Bash');
    expect(steps[1].tools).toBeNull(); // the same set: written once
    // Turn 2 repeats turn 1's user message, sends back the answer (not the one logged here: shown) and adds the tool result.
    expect(steps[1]).toMatchObject({ earlier: 1, fresh: false });
    expect(steps[1].messages.map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(steps[1].messages[1].parts[0]).toMatchObject({ kind: 'tool_result', text: expect.stringContaining('Apple Inc.') });
    expect(steps[3].response?.parts.map((p) => [p.kind, p.text])).toEqual([['reasoning', 'think 3'], ['text', 'say 3']]);
  });

  test('the answer a request sends back is left out when it is the one logged with the previous turn', () => {
    const requests = fixture('claude-code');
    const answers = requests.slice(1).map((r) => (r.body.messages as { role: string; content: unknown }[]).at(-2)!);
    const steps = modelSteps(logLines(requests, (i) => (i < answers.length ? { content: answers[i].content } : { content: [{ type: 'text', text: 'done' }] })));
    expect(steps.slice(1).map((s) => s.messages.map((m) => m.role))).toEqual([['user'], ['user'], ['user']]);
    expect(steps.slice(1).map((s) => s.earlier)).toEqual([1, 3, 5]);
  });

  test("Codex's Responses requests: developer messages, the function call's output as the tool's; an upstream error body", () => {
    const lines = logLines(fixture('codex'), (i) => (i === 3 ? { error: { message: 'overloaded' } } : { output: [{ type: 'reasoning', summary: [{ text: 'plan' }] }, { type: 'function_call', name: 'exec_command', arguments: '{"cmd": "ls"}', call_id: `c${i}` }] }));
    const steps = modelSteps(lines);
    expect(steps[0].messages.map((m) => m.role).slice(0, 2)).toEqual(['developer', 'developer']);
    expect(steps[0].response?.parts).toEqual([{ kind: 'reasoning', text: 'plan' }, { kind: 'tool_call', name: 'exec_command', id: 'c0', text: '{"cmd":"ls"}' }]);
    expect(steps[1].messages.map((m) => [m.role, m.parts[0].kind]).at(-1)).toEqual(['tool', 'tool_result']);
    expect(steps[3].response).toEqual({ role: 'error', parts: [{ kind: 'text', text: 'overloaded' }] });
  });

  test('Chat completions, counts-only lines, unreadable lines; tool calls merged by time, each log in its order', () => {
    const chat = JSON.stringify({ ts: 5, turn: 1, request: { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] }, response: { choices: [{ message: { role: 'assistant', content: null, reasoning_content: 'hmm', tool_calls: [{ id: 't1', function: { name: 'run', arguments: '{"a":1}' } }] } }] } });
    const counts = JSON.stringify({ ts: 9, turn: 2, input_tokens: 7, conversation_not_logged: 'the model log reached its cap' });
    const steps = modelSteps([chat, counts, 'not json']);
    expect(steps[0].messages).toEqual([{ role: 'system', parts: [{ kind: 'text', text: 'be brief' }] }, { role: 'user', parts: [{ kind: 'text', text: 'hi' }] }]);
    expect(steps[0].response?.parts).toEqual([{ kind: 'reasoning', text: 'hmm' }, { kind: 'tool_call', name: 'run', id: 't1', text: '{"a":1}' }]);
    expect(steps[1]).toMatchObject({ recorded: false, input: 7, note: 'the model log reached its cap', messages: [] });
    expect(steps[2]).toMatchObject({ note: 'an unreadable line', ts: null });
    const tools = toolSteps([JSON.stringify({ ts: 6, tool: 'run', args: { a: 1 }, success: true, result_preview: 'ok' }), JSON.stringify({ ts: 10, tool: 'x', success: false })], ['page of stop 1', null], [[1], []]);
    expect(tools[0]).toMatchObject({ n: 1, tool: 'run', args: '{"a":1}', ok: true, preview: 'ok', note: 'page of stop 1', stops: [1] });
    expect(mergeByTime(steps.slice(0, 2), tools).map((s) => (s.kind === 'model' ? `m${s.line}` : `t${s.n}`))).toEqual(['m1', 't1', 'm2', 't2']);
  });

  test('bounded: a long part is cut at PART_CHARS with what was left out; the log is read split on newlines only', () => {
    const { dir, cleanup } = tempDir('aar-conversation-');
    try {
      const huge = 'x'.repeat(PART_CHARS + 500) + '\u2028tail';
      const file = path.join(dir, 'model_log.jsonl');
      writeFileSync(file, JSON.stringify({ ts: 1, turn: 1, request: { messages: [{ role: 'user', content: huge }] } }) + '\n' + JSON.stringify({ ts: 2, turn: 2 }) + '\n');
      const { lines, total } = readModelLog(file, 1);
      expect([lines.length, total]).toEqual([1, 2]);
      const conversation = buildConversation({ modelLines: lines, modelTotal: total, toolLines: [], toolTotal: 0, notes: [], stops: [] });
      const part = (conversation.steps[0] as { messages: { parts: { text: string; cut?: number }[] }[] }).messages[0].parts[0];
      expect([part.text.length, part.cut]).toEqual([PART_CHARS, 505]);
      expect(conversation.bounded).toBe('the first 1 model turns and 0 tool calls are listed; 505 characters of long messages left out (each cut says where)');
    } finally {
      cleanup();
    }
  });
});
