import { z } from 'zod';
import type { CliModelGateway } from '../../../family.js';
import type { ModelStep } from '../config.js';
import { dropped, type StepResult } from '../draft.js';

/**
 * The pipeline's model steps ask through the harness's model gateway (lent by the CLI), which holds the
 * provider's key, retries, prices each request and logs it to `<out>/model_log.jsonl`. Every request is
 * one fresh conversation at temperature 0.
 */

export interface StepUsage {
  requests: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
}

export interface ModelClient {
  readonly name: string;
  readonly steps: ReadonlySet<ModelStep>;
  /** The reply's text; throws with the gateway's or provider's message when the request failed. */
  ask(step: ModelStep, system: string, user: string): Promise<string>;
  readonly usage: Record<ModelStep, StepUsage>;
}

const AnthropicReply = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
  usage: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional() }).optional(),
});
const ChatReply = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullable().optional(),
});

const emptyUsage = (): Record<ModelStep, StepUsage> => ({
  plan: { requests: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
  extract: { requests: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
  verbalize: { requests: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
  roundtrip: { requests: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
});

export function gatewayModelClient(gateway: Pick<CliModelGateway, 'url' | 'token'>, options: { name: string; api: 'openai' | 'anthropic'; steps: readonly ModelStep[]; maxTokens: number }): ModelClient {
  const usage = emptyUsage();
  const anthropic = options.api === 'anthropic';
  return {
    name: options.name,
    steps: new Set(options.steps),
    usage,
    async ask(step, system, user) {
      const u = usage[step];
      u.requests++;
      const body = anthropic
        ? { model: options.name, max_tokens: options.maxTokens, temperature: 0, system, messages: [{ role: 'user', content: user }] }
        : { model: options.name, max_completion_tokens: options.maxTokens, temperature: 0, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] };
      const response = await fetch(anthropic ? `${gateway.url}/anthropic/v1/messages` : `${gateway.url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: anthropic ? { 'content-type': 'application/json', 'x-api-key': gateway.token, 'anthropic-version': '2023-06-01' } : { 'content-type': 'application/json', authorization: `Bearer ${gateway.token}` },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) {
        u.failed++;
        throw new Error(`model ${options.name}: HTTP ${response.status}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
      }
      const json: unknown = JSON.parse(text);
      if (anthropic) {
        const reply = AnthropicReply.parse(json);
        u.inputTokens += reply.usage?.input_tokens ?? 0;
        u.outputTokens += reply.usage?.output_tokens ?? 0;
        return reply.content.map((c) => c.text ?? '').join('');
      }
      const reply = ChatReply.parse(json);
      u.inputTokens += reply.usage?.prompt_tokens ?? 0;
      u.outputTokens += reply.usage?.completion_tokens ?? 0;
      return reply.choices[0]!.message.content ?? '';
    },
  };
}

/** The start of a reply, quoted, for a reason that says what the model answered. */
export const replyExcerpt = (reply: string): string => `(the reply began "${reply.replace(/\s+/g, ' ').trim().slice(0, 60)}")`;

/** The JSON a reply holds: the whole reply, a fenced block, or the first {...} / [...] in it. */
export function jsonIn(reply: string): unknown {
  const candidates = [reply.trim(), /```(?:json)?\s*([\s\S]*?)```/.exec(reply)?.[1]?.trim(), /[[{][\s\S]*[\]}]/.exec(reply)?.[0]];
  for (const c of candidates) {
    if (!c) continue;
    try {
      return JSON.parse(c);
    } catch {
      // the next candidate
    }
  }
  return undefined;
}

/**
 * Asks the model and checks its reply: the checked value, or the step's reason to drop the leg (a failed
 * request, or the check's refusal followed by the start of the reply).
 */
export async function askChecked<T>(model: ModelClient, step: ModelStep, prompt: { system: string; user: string; what: string }, check: (reply: string) => StepResult<T>): Promise<StepResult<T>> {
  let reply: string;
  try {
    reply = await model.ask(step, prompt.system, prompt.user);
  } catch (error) {
    return dropped(`the ${prompt.what} request failed: ${(error as Error).message}`);
  }
  const checked = check(reply);
  return checked.ok ? checked : dropped(`${checked.reason} ${replyExcerpt(reply)}`);
}
