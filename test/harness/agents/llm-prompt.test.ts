import path from 'node:path';
import { llmAgent, llmApiOf } from '../../../harness/agents/llm/adapter.js';
import type { AgentContext } from '../../../harness/agents/types.js';
import { taskFamily } from '../../../tasks/registry.js';
import { readGraphFolder } from '../../../tasks/wikirace/graph/store.js';
import { REPO_ROOT } from '../../helpers/data.js';
import { parseChoice, retryNote, stepPrompt } from '../../../harness/agents/llm/prompt.js';

const LINKS = ['Ancient Rome', 'Roman Empire', 'Julius Caesar', 'Rome (TV series)'];

describe('the llm agent prompt and reply parsing', () => {
  test('the prompt holds target, current page, step, history and numbered options', () => {
    const text = stepPrompt({ target: 'Augustus', current: 'Italy', visited: ['Europe', 'Italy'], links: LINKS, over: false, moves: 1, moveLimit: 30 }, 2, 30);
    expect(text).toContain('Target page: Augustus\nCurrent page: Italy\nStep: 2 of 30\nPages visited so far: Europe -> Italy\n\nLinks on the current page:\n1. Ancient Rome\n2. Roman Empire\n3. Julius Caesar\n4. Rome (TV series)\n');
    expect(text).toContain('\\boxed{');
    expect(retryNote('hmm')).toContain('did not name one of the links');
    // No advice on loops unless asked for by name (options.loop_hint): loop rate is one of the paper's findings.
    expect(text).not.toMatch(/visited\b.*avoid|avoid.*(visited|circles)/i);
    expect(stepPrompt({ target: 'Augustus', current: 'Italy', visited: ['Italy'], links: LINKS, over: false, moves: 0, moveLimit: 30 }, 1, 30, { loopHint: true })).toContain('in few steps. Avoid pages you have already visited.\n');
  });

  test('the last \\boxed{} wins; titles match loosely, numbers pick from the list; nothing offered is undefined', () => {
    expect(parseChoice('Maybe \\boxed{Ancient Rome}, but no: \\boxed{Julius Caesar}', LINKS)).toBe('Julius Caesar');
    expect(parseChoice('\\boxed{roman_empire}', LINKS)).toBe('Roman Empire');
    expect(parseChoice('\\boxed{\\text{Rome (TV series)}}', LINKS)).toBe('Rome (TV series)');
    expect(parseChoice('\\boxed{2}', LINKS)).toBe('Roman Empire');
    expect(parseChoice('I will go to\nJulius Caesar', LINKS)).toBe('Julius Caesar');
    expect(parseChoice('\\boxed{Augustus}', LINKS)).toBeUndefined();
    expect(parseChoice('\\boxed{9}', LINKS)).toBeUndefined();
    expect(parseChoice('', LINKS)).toBeUndefined();
  });

  test('titles that end in a period or start with a quote are chosen as they are, bare or wrapped', () => {
    const odd = ['Arsenal F.C.', 'Washington, D.C.', 'Apple Inc.', '"Weird Al" Yankovic', 'Apple', 'Washington'];
    for (const title of odd) {
      expect(parseChoice(`\\boxed{${title}}`, odd)).toBe(title);
      expect(parseChoice(`I pick:\n${title}`, odd)).toBe(title);
      expect(parseChoice(`\\boxed{\\text{${title}}}`, odd)).toBe(title);
    }
    expect(parseChoice('\\boxed{"Arsenal F.C."}', odd)).toBe('Arsenal F.C.');
    expect(parseChoice('**Apple Inc.**', odd)).toBe('Apple Inc.');
    expect(parseChoice('\\boxed{Weird Al Yankovic}', odd)).toBeUndefined();
    // A period that ends the sentence, not the title, still goes.
    expect(parseChoice('My answer is\nJulius Caesar.', LINKS)).toBe('Julius Caesar');
    expect(parseChoice('\\boxed{"Roman Empire"}', LINKS)).toBe('Roman Empire');
  });

  test('on the example graph, every page\'s every link is chosen when named, boxed or on the last line (it has such titles)', async () => {
    const { graph } = await readGraphFolder(path.join(REPO_ROOT, 'tasks', 'examples-wikirace', 'graph'));
    const odd = graph.titles.filter((t) => t.endsWith('.') || t.startsWith('"'));
    expect(odd.filter((t) => t.endsWith('.')).length).toBeGreaterThan(50);
    expect(odd.filter((t) => t.startsWith('"')).length).toBeGreaterThan(50);
    const missed: string[] = [];
    for (let page = 0; page < graph.pageCount; page++) {
      const links = [...graph.linksOf(page)].map((p) => graph.titles[p]!);
      for (const title of links) {
        if (parseChoice(`\\boxed{${title}}`, links) !== title || parseChoice(`Going on.\n${title}`, links) !== title) missed.push(title);
      }
    }
    expect(missed).toEqual([]);
  });

  test('options: retries, the reply cap and thinking reach the player; bad ones are one-line errors naming the option', async () => {
    const family = taskFamily('wikirace');
    const { tasks } = await family.load([path.join(REPO_ROOT, 'tasks', 'examples-wikirace', 'easy', '001.json')]);
    const ctx = (options: Record<string, unknown>, model = 'claude-sonnet-4-6'): AgentContext => ({
      trialId: 't', family, task: tasks[0]!, instruction: 'i', stepBudget: 90, agent: { name: 'llm', model, flags: [], env: {}, options }, seed: 1, gatewayUrl: 'http://127.0.0.1:8900', token: 'tok',
    });
    expect((await llmAgent.launch(ctx({}))).env).toEqual({ LLM_API: 'anthropic', LLM_MODEL: 'claude-sonnet-4-6', LLM_RETRIES: '2', LLM_MAX_TOKENS: '2048', LLM_THINKING: '' });
    expect((await llmAgent.launch(ctx({ retries: 0, max_tokens: 16000, thinking: 8000 }))).env).toMatchObject({ LLM_RETRIES: '0', LLM_MAX_TOKENS: '16000', LLM_THINKING: '8000' });
    expect((await llmAgent.launch(ctx({ thinking: 'high' }, 'gpt-5.4'))).env).toMatchObject({ LLM_API: 'openai', LLM_THINKING: 'high' });
    expect((await llmAgent.launch(ctx({ loop_hint: true }))).env).toMatchObject({ LLM_LOOP_HINT: '1' });
    expect(() => llmAgent.check!({ name: 'llm', flags: [], env: {}, options: { loop_hint: 'yes' } })).toThrow(/^agent llm: options\.loop_hint: /);
    process.env.ANTHROPIC_API_KEY ??= 'k';
    expect(() => llmAgent.check!({ name: 'llm', flags: [], env: {}, options: { thinking: 4096 } })).toThrow('agent llm: options.max_tokens: must exceed the thinking budget 4096');
    expect(() => llmAgent.check!({ name: 'llm', flags: [], env: {}, options: { thinking: 'extreme' } })).toThrow(/^agent llm: options\.thinking: /);
    expect(() => llmAgent.check!({ name: 'llm', flags: [], env: {}, options: { retry: 1 } })).toThrow(/^agent llm: options\.\(options\): .*retry/);
  });

  test('Claude models speak Anthropic Messages, others OpenAI Chat Completions', () => {
    expect(llmApiOf('claude-sonnet-4-6')).toBe('anthropic');
    expect(llmApiOf('gpt-5.4')).toBe('openai');
  });
});
