/**
 * The `llm` agent's program, run inside the trial container (bundled into one file): plays a WikiRace game
 * by the paper's protocol. Each step reads the state through the `tools` command, makes one model call
 * through the model gateway with the step prompt, parses the chosen link and moves; a reply naming no
 * available link is asked again, at most LLM_RETRIES times per step, then the game is given up. The move
 * limit is the game's (read off its state); the model calls are capped by the gateway's budget, and a
 * refusal there ends the game with a line saying so.
 *
 *   node llm-player.cjs      (env: LLM_API anthropic|openai, LLM_MODEL, LLM_RETRIES, LLM_MAX_TOKENS, LLM_THINKING, LLM_LOOP_HINT, AAR_GATEWAY_*, AAR_TRIAL_TOKEN)
 */
import { gatewayFromEnv, postJson } from '../../../container/gateway-client.js';
import { readStateText } from '../../../tasks/wikirace/game/state-text.js';
import { toolsSession } from '../../../container/batch-session.js';
import { startUnlessLoaded } from '../../../container/program.js';
import { parseChoice, retryNote, stepPrompt } from './prompt.js';

const API = process.env.LLM_API === 'openai' ? 'openai' : 'anthropic';
const MODEL = process.env.LLM_MODEL ?? 'claude-sonnet-4-6';
const RETRIES = Number(process.env.LLM_RETRIES ?? 2);
/** The Anthropic reply cap (max_tokens); with thinking it must exceed the thinking budget. */
const MAX_TOKENS = Number(process.env.LLM_MAX_TOKENS || 2048);
/** Extended thinking's token budget (Anthropic `thinking`) or reasoning effort (OpenAI `reasoning_effort`); empty: off. */
const THINKING = process.env.LLM_THINKING ?? '';
/** `1`: the prompt adds the advice to avoid visited pages (options.loop_hint); anything else: the paper's prompt. */
const LOOP_HINT = process.env.LLM_LOOP_HINT === '1';
const MODEL_TIMEOUT_MS = 300_000;

type Json = Record<string, unknown>;

/** One model call, no conversation: the prompt alone. Returns the reply's text. */
async function ask(prompt: string): Promise<string> {
  const gateway = gatewayFromEnv();
  if (API === 'anthropic') {
    const thinking = /^\d+$/.test(THINKING) ? { thinking: { type: 'enabled', budget_tokens: Number(THINKING) } } : {};
    const body = { model: MODEL, max_tokens: MAX_TOKENS, ...thinking, messages: [{ role: 'user', content: prompt }] };
    const reply = (await postJson(gateway, '/anthropic/v1/messages', body, MODEL_TIMEOUT_MS)) as unknown as Json;
    const blocks = Array.isArray(reply.content) ? (reply.content as Json[]) : [];
    return blocks.filter((b) => b.type === 'text').map((b) => String(b.text)).join('\n');
  }
  const effort = THINKING && !/^\d+$/.test(THINKING) ? { reasoning_effort: THINKING } : {};
  const reply = (await postJson(gateway, '/openai/v1/chat/completions', { model: MODEL, ...effort, messages: [{ role: 'user', content: prompt }] }, MODEL_TIMEOUT_MS)) as unknown as Json;
  const choice = (reply.choices as Json[] | undefined)?.[0]?.message as Json | undefined;
  return typeof choice?.content === 'string' ? choice.content : '';
}

export async function main(): Promise<number> {
  try {
    await play();
    return 0;
  } catch (error) {
    console.error(`llm: ${(error as Error).message}`);
    return 1;
  }
}

async function play(): Promise<void> {
  const tools = toolsSession();
  let calls = 0;
  let state = await tools.call('wikirace_state');
  let step = 1;
  try {
    game: for (;;) {
      const shown = readStateText(state.text);
      if (!state.ok || shown.over || !shown.links.length) break;
      const prompt = stepPrompt(shown, step, shown.moveLimit ?? 30, { loopHint: LOOP_HINT });
      let choice: string | undefined;
      let reply = '';
      for (let attempt = 0; attempt <= RETRIES && choice === undefined; attempt++) {
        calls++;
        try {
          reply = await ask(attempt ? prompt + retryNote(reply) : prompt);
        } catch (error) {
          if (!/aar_budget_exhausted|budget used up/.test((error as Error).message)) throw error;
          calls--;
          console.log(`llm: the model-call budget is used up after ${calls} calls and ${step - 1} moves (${(error as Error).message})`);
          break game;
        }
        choice = parseChoice(reply, shown.links);
      }
      if (choice === undefined) {
        console.log(`llm: step ${step}: no available link in ${RETRIES + 1} replies; giving up`);
        break;
      }
      console.log(`llm: step ${step}: ${shown.current} -> ${choice}`);
      state = await tools.call('wikirace_move', { page: choice });
      step++;
    }
  } finally {
    tools.close();
  }
  console.log(state.text.split('\n').find((l) => l.startsWith('The game is over')) ?? 'llm: the game is not over');
  console.log(`llm: ${calls} model calls`);
}

startUnlessLoaded(main);
