import { parseJobConfig } from '../../../../harness/config/load.js';
import { usesLocalModel, localModelSpec } from '../../../../harness/gateway/local/spec.js';
import { checkAgents } from '../../../../harness/jobs/agent-check.js';
import { planTrials } from '../../../../harness/jobs/plan.js';
import { InputError } from '../../../../tasks/problems.js';
import { configProblems } from '../../../helpers/config-problems.js';

/** Which jobs use the local model, and that they need no provider key on the host. */

const WIKIRACE = 'tasks:\n  family: wikirace\n  path: pairs\n';
const loaded = (text: string) => ({ file: 'job.yaml', text, config: parseJobConfig('job.yaml', text), resolve: (p: string) => p });
const withoutKeys = <T>(run: () => T): T => {
  const saved = { a: process.env.ANTHROPIC_API_KEY, o: process.env.OPENAI_API_KEY };
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.OPENAI_API_KEY;
  try {
    return run();
  } finally {
    if (saved.a !== undefined) process.env.ANTHROPIC_API_KEY = saved.a;
    if (saved.o !== undefined) process.env.OPENAI_API_KEY = saved.o;
  }
};

describe('a job on the local model', () => {
  test('models.provider: local, or an agent model local:<name>, names the model', () => {
    expect(localModelSpec(parseJobConfig('job.yaml', `${WIKIRACE}agents:\n  - name: llm\nmodels:\n  provider: local\n  path: smollm2\n`))).toBe('smollm2');
    expect(localModelSpec(parseJobConfig('job.yaml', `${WIKIRACE}agents:\n  - name: llm\n    model: local:./m.gguf\n`))).toBe('./m.gguf');
    expect(usesLocalModel(parseJobConfig('job.yaml', `${WIKIRACE}agents:\n  - name: llm\n`))).toBe(false);
    expect(configProblems(`${WIKIRACE}agents:\n  - name: llm\nmodels:\n  provider: local\n`)).toEqual([
      'job.yaml:7:3: models.path: provider: local needs path: a packaged model name (smollm2) or a .gguf file',
    ]);
  });

  test('needs no provider key on the host; two local models in one job are refused at `agents`', () => {
    const local = loaded(`${WIKIRACE}agents:\n  - name: llm\n    model: local:smollm2\n  - name: llm\n    id: second\n    model: local:smollm2\n`);
    withoutKeys(() => expect(() => checkAgents(local)).not.toThrow());
    withoutKeys(() => expect(planTrials(local.config, []).length).toBe(0));
    const remote = loaded(`${WIKIRACE}agents:\n  - name: llm\n    model: gpt-5\n`);
    withoutKeys(() => expect(() => checkAgents(remote)).toThrow('needs OPENAI_API_KEY in the host environment'));
    const two = loaded(`${WIKIRACE}agents:\n  - name: llm\n    model: local:smollm2\n  - name: llm\n    id: other\n    model: local:x.gguf\n`);
    let problem: unknown;
    try {
      checkAgents(two);
    } catch (error) {
      problem = error;
    }
    expect((problem as InputError).problems).toEqual([{ file: 'job.yaml', path: 'agents', message: 'agents name 2 local models (smollm2, x.gguf): a job serves one' }]);
  });

  test('models.provider: openai-compatible needs base_url, and its agents need no provider key on the host', () => {
    expect(configProblems(`${WIKIRACE}agents:\n  - name: llm\nmodels:\n  provider: openai-compatible\n`)).toEqual([
      'job.yaml:7:3: models.base_url: provider: openai-compatible needs base_url: the server\'s OpenAI base URL, e.g. http://127.0.0.1:11434/v1',
    ]);
    const compat = loaded(`tasks:\n  path: legs\nagents:\n  - name: claude-code\n  - name: codex\n  - name: mini-swe-agent\nmodels:\n  provider: openai-compatible\n  base_url: http://127.0.0.1:11434/v1\n  upstream_model: qwen2.5:7b\n`);
    expect(compat.config.models).toMatchObject({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', upstream_model: 'qwen2.5:7b' });
    withoutKeys(() => expect(() => checkAgents(compat)).not.toThrow());
  });
});
