import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { z } from 'zod';
import type { CliModelGateway } from '../family.js';
import type { LinkGraph } from './graph/graph.js';
import { parseProbeAnswer, probePrompt, scoreProbe, type ProbePair, type ProbeScore } from './graph/probe.js';

export type ProbeApi = 'anthropic' | 'openai';

export interface ProbeRunOptions {
  graph: LinkGraph;
  pairs: readonly ProbePair[];
  model: string;
  api: ProbeApi;
  /** The harness's model gateway (CliServices.startModelGateway), logging to `out`; the probe closes it. */
  gateway: CliModelGateway;
  /** Where probe.jsonl, model_log.jsonl and summary.json go. */
  out: string;
  concurrency?: number;
  maxTokens?: number;
  /** What summary.json records of the draw: the graph (its folder and checksum, by which a job's configurations join the probe for Figure 1), the pairs per class, the seed. */
  drawn?: { graph: string; graphSha256: string; pairsPerClass: number; seed: number };
}

const AnthropicReply = z.object({ content: z.array(z.object({ type: z.string(), text: z.string().optional() })) });
const ChatReply = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1) });

/** Asks one question through the gateway in the chosen API; returns the reply's text. */
async function ask(url: string, token: string, api: ProbeApi, model: string, prompt: string, maxTokens: number): Promise<string> {
  const anthropic = api === 'anthropic';
  const response = await fetch(anthropic ? `${url}/anthropic/v1/messages` : `${url}/openai/v1/chat/completions`, {
    method: 'POST',
    headers: anthropic
      ? { 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01' }
      : { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    // OpenAI's reasoning models refuse max_tokens; max_completion_tokens is what Chat Completions takes now.
    body: JSON.stringify({ model, ...(anthropic ? { max_tokens: maxTokens } : { max_completion_tokens: maxTokens }), messages: [{ role: 'user', content: prompt }] }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`model ${model}: HTTP ${response.status}: ${text.slice(0, 200)}`);
  const body: unknown = JSON.parse(text);
  if (anthropic) return AnthropicReply.parse(body).content.map((c) => c.text ?? '').join('');
  return ChatReply.parse(body).choices[0]!.message.content ?? '';
}

/**
 * Runs the probe: one fresh single-question conversation per pair, sent through the harness's model
 * gateway (which holds the key, retries, and logs every request with its tokens and cost to
 * model_log.jsonl), then precision, recall and F1 with "connected" as the positive class. Closes the gateway.
 */
export async function runProbe(options: ProbeRunOptions): Promise<ProbeScore & { turns: number; inputTokens: number; outputTokens: number; costUsd: number }> {
  await mkdir(options.out, { recursive: true });
  const { gateway } = options;
  try {
    const queue = new PQueue({ concurrency: options.concurrency ?? 4 });
    const { graph } = options;
    const answers = await Promise.all(
      options.pairs.map((pair) =>
        queue.add(async () => {
          try {
            const reply = await ask(gateway.url, gateway.token, options.api, options.model, probePrompt(graph.titles[pair.source]!, graph.titles[pair.target]!), options.maxTokens ?? 1024);
            return { pair, reply, answer: parseProbeAnswer(reply), failed: false, error: null };
          } catch (error) {
            // One failed question (after the gateway's attempts) is recorded as failed; the others go on.
            return { pair, reply: '', answer: undefined, failed: true, error: (error as Error).message.split('\n')[0]! };
          }
        }),
      ),
    );
    const lines = answers.map(({ pair, reply, answer, error }) =>
      JSON.stringify({ source: graph.titles[pair.source], target: graph.titles[pair.target], kind: pair.kind, connected: pair.connected, answer: answer ?? null, reply: reply.slice(-400), ...(error !== null && { error }) }),
    );
    await writeFile(path.join(options.out, 'probe.jsonl'), lines.join('\n') + '\n');
    const usage = gateway.usage();
    const drawn = options.drawn && { graph: options.drawn.graph, graph_sha256: options.drawn.graphSha256, pairs_per_class: options.drawn.pairsPerClass, seed: options.drawn.seed };
    const summary = { model: options.model, api: options.api, ...drawn, ...scoreProbe(answers), turns: usage.turns, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: usage.costUsd };
    await writeFile(path.join(options.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    return summary;
  } finally {
    await gateway.close();
  }
}
