import { readFileSync } from 'node:fs';
import { packagePath } from '../../../paths.js';
import type { AgentAdapter } from '../types.js';

/** The program (./player.ts), bundled by the build: it runs inside the container. */
const PLAYER_BUNDLE = packagePath('dist', 'agents', 'llm-player.cjs');
export const LLM_DEFAULT_MODEL = 'claude-sonnet-4-6';
/** Replies naming no available link that a step asks again before the game is given up. */
export const LLM_DEFAULT_RETRIES = 2;

/** Which model API a model name speaks: Anthropic Messages for Claude models, else OpenAI Chat Completions. */
export const llmApiOf = (model: string): 'anthropic' | 'openai' => (/^claude/i.test(model) ? 'anthropic' : 'openai');

/**
 * `llm`: a model plays LLM-WikiRace by the paper's protocol, without an agent framework: one model call per
 * step through the model gateway (which counts its turns, tokens and cost), the step prompt holding the
 * current page, the target, the history and the options. Only for the wikirace family.
 */
export const llmAgent: AgentAdapter = {
  name: 'llm',
  imageLayer: null,
  usesModel: true,
  check(agent) {
    const key = llmApiOf(agent.model ?? LLM_DEFAULT_MODEL) === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    if (!process.env[key]) throw new Error(`llm with model ${agent.model ?? LLM_DEFAULT_MODEL} needs ${key} in the host environment (it stays on the host; containers get a trial token)`);
  },
  launch(ctx) {
    if (ctx.family.name !== 'wikirace') throw new Error(`the llm agent plays the wikirace family only, not ${ctx.family.name}`);
    const model = ctx.agent.model ?? LLM_DEFAULT_MODEL;
    return {
      files: [{ path: '/opt/aar/llm-player.cjs', content: readFileSync(PLAYER_BUNDLE) }],
      command: ['node', '/opt/aar/llm-player.cjs'],
      env: { LLM_API: llmApiOf(model), LLM_MODEL: model, LLM_RETRIES: String(LLM_DEFAULT_RETRIES), LLM_STEP_BUDGET: String(ctx.stepBudget) },
      logDirs: [],
    };
  },
};
