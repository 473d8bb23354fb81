import { z } from 'zod';
import { programPath } from '../../../container/program.js';
import type { AgentAdapter } from '../types.js';

/** The program (./player.ts): bundled by the build, in the base image; it runs inside the container. */
const PLAYER = programPath('llm-player.cjs');
export const LLM_DEFAULT_MODEL = 'claude-sonnet-4-6';
/** Replies naming no available link that a step asks again before the game is given up. */
export const LLM_DEFAULT_RETRIES = 2;
/** The Anthropic reply cap when `options.max_tokens` is not set. */
export const LLM_DEFAULT_MAX_TOKENS = 2048;

/**
 * The `llm` agent's `options`: `retries` per step, `max_tokens` (the Anthropic reply cap), `thinking`: a
 * token budget (Anthropic extended thinking; max_tokens must be larger) or an effort name (OpenAI
 * `reasoning_effort`: minimal, low, medium, high); `loop_hint: true` adds advice to avoid visited pages,
 * which the paper's prompt does not give (off by default: loops are one of the paper's findings).
 */
export const LlmOptionsSchema = z.strictObject({
  retries: z.number().int().nonnegative().optional(),
  loop_hint: z.boolean().optional(),
  max_tokens: z.number().int().positive().optional(),
  thinking: z.union([z.number().int().min(1024), z.enum(['minimal', 'low', 'medium', 'high'])]).optional(),
});

function llmOptions(agent: { id?: string; options: Record<string, unknown> }): z.infer<typeof LlmOptionsSchema> {
  const parsed = LlmOptionsSchema.safeParse(agent.options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`agent ${agent.id ?? 'llm'}: options.${issue.path.join('.') || '(options)'}: ${issue.message}`);
  }
  const o = parsed.data;
  if (typeof o.thinking === 'number' && (o.max_tokens ?? LLM_DEFAULT_MAX_TOKENS) <= o.thinking) {
    throw new Error(`agent ${agent.id ?? 'llm'}: options.max_tokens: must exceed the thinking budget ${o.thinking}`);
  }
  return o;
}

/** Which model API a model name speaks: Anthropic Messages for Claude models, else OpenAI Chat Completions. */
export const llmApiOf = (model: string): 'anthropic' | 'openai' => (/^claude/i.test(model) ? 'anthropic' : 'openai');

/**
 * `llm`: a model plays LLM-WikiRace by the paper's protocol, without an agent framework: one model call per
 * step through the model gateway (which counts its turns, tokens and cost), the step prompt holding the
 * current page, the target, the history and the options. Only for the wikirace family (`families`).
 */
export const llmAgent: AgentAdapter = {
  name: 'llm',
  families: ['wikirace'],
  imageLayer: null,
  usesModel: true,
  check(agent, job) {
    llmOptions(agent);
    if (job?.localModel) return;
    const key = llmApiOf(agent.model ?? LLM_DEFAULT_MODEL) === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    if (!process.env[key]) throw new Error(`llm with model ${agent.model ?? LLM_DEFAULT_MODEL} needs ${key} in the host environment (it stays on the host; containers get a trial token)`);
  },
  launch(ctx) {
    const model = ctx.agent.model ?? LLM_DEFAULT_MODEL;
    const options = llmOptions(ctx.agent);
    return {
      files: [],
      command: ['node', PLAYER],
      // The move limit is the game's: the player reads it off the game's state, not from here.
      env: {
        LLM_API: llmApiOf(model),
        LLM_MODEL: model,
        LLM_RETRIES: String(options.retries ?? LLM_DEFAULT_RETRIES),
        LLM_MAX_TOKENS: String(options.max_tokens ?? LLM_DEFAULT_MAX_TOKENS),
        LLM_THINKING: options.thinking === undefined ? '' : String(options.thinking),
        ...(options.loop_hint ? { LLM_LOOP_HINT: '1' } : {}),
      },
      logDirs: [],
    };
  },
};
