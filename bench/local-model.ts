/**
 * bench:local-model: SmolLM2-135M-Instruct (Q4_1) on this machine's CPU through node-llama-cpp.
 * - prompt tokens/s: a long prompt answered with one token (prompt reading dominates);
 * - generation tokens/s: the same prompt answered with GEN tokens, minus the one-token time;
 * both with 1 sequence, then 4 requests at once on 4 parallel sequences (aggregate tokens/s);
 * - the gateway's overhead per local call: one-token requests straight to the local model's HTTP face vs
 *   through the gateway (token check, budget, proxy, usage, model log), medians.
 * Env: THREADS (default 1, as the gateway), ROUNDS (default 3).
 *   npm run bench:local-model
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { fetchModel } from '../harness/gateway/local/catalog.js';
import { localModelHandler } from '../harness/gateway/local/handler.js';
import { ensureLlamaRuntime } from '../harness/gateway/local/runtime.js';
import { BUILT_IN_PRICES } from '../harness/gateway/models/apis/registry.js';
import { GatewayServer } from '../harness/gateway/server.js';
import { ResponseStore } from '../tools/store/store.js';
import { ToolService } from '../tools/service.js';

const THREADS = Number(process.env.THREADS ?? 1);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const GEN = 64;
const PROMPT = `Summarise this text in one sentence.\n\n${'The Amazing Agent Race asks agents to follow clues across web pages, maps and tools, and to compute one digit. '.repeat(14)}`;
const STORY = 'Write a long story about a fox who travels around the world. Use many details.';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function post(url: string, key: string, body: unknown): Promise<{ ms: number; usage: { prompt_tokens: number; completion_tokens: number } }> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const json = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number }; error?: unknown };
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(json.error)}`);
  return { ms: performance.now() - started, usage: json.usage };
}

async function measure(parallel: number): Promise<void> {
  const file = await fetchModel('smollm2');
  await ensureLlamaRuntime();
  const handler = localModelHandler({ path: file, parallel, contextSize: 2048, threads: THREADS, prices: BUILT_IN_PRICES });
  const local = await handler.server();
  const url = `${local.baseUrls.openai}/chat/completions`;
  const batch = (body: unknown) => Promise.all(Array.from({ length: parallel }, () => post(url, local.key, body)));
  await post(url, local.key, { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2 }); // warm-up
  const prompt: number[] = [];
  const gen: number[] = [];
  let promptTokens = 0;
  let genTokens = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    const one = await batch({ messages: [{ role: 'user', content: PROMPT }], max_tokens: 1 });
    const oneMs = performance.now() - started;
    promptTokens = one[0].usage.prompt_tokens;
    prompt.push((promptTokens * parallel) / (oneMs / 1000));
    const storyOne = await batch({ messages: [{ role: 'user', content: STORY }], max_tokens: 1 });
    const storyOneMs = Math.max(...storyOne.map((s) => s.ms));
    const startedGen = performance.now();
    const long = await batch({ messages: [{ role: 'user', content: STORY }], max_tokens: GEN });
    const longMs = performance.now() - startedGen;
    genTokens = long.reduce((n, l) => n + l.usage.completion_tokens - 1, 0);
    gen.push(genTokens / ((longMs - storyOneMs) / 1000));
  }
  console.log(
    `parallel ${parallel}: prompt ${median(prompt).toFixed(0)} tokens/s (${promptTokens} tokens x ${parallel}), ` +
      `generation ${median(gen).toFixed(1)} tokens/s (${genTokens} tokens in all), median of ${ROUNDS}`,
  );

  if (parallel === 1) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-local-'));
    const gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(path.join(dir, 'store')) }), models: handler });
    const gatewayUrl = await gateway.listenTcp();
    const trial = gateway.trials.register({ trialId: 'bench', toolLogPath: path.join(dir, 'tools.jsonl'), modelLogPath: path.join(dir, 'model_log.jsonl') });
    const body = { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 1 };
    const direct: number[] = [];
    const through: number[] = [];
    for (let i = 0; i < 10 * ROUNDS; i++) {
      direct.push((await post(url, local.key, body)).ms);
      through.push((await post(`${gatewayUrl}/openai/v1/chat/completions`, trial.token, body)).ms);
    }
    console.log(`one-token call: direct ${median(direct).toFixed(1)} ms, through the gateway ${median(through).toFixed(1)} ms: overhead ${(median(through) - median(direct)).toFixed(1)} ms (median of ${direct.length})`);
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await handler.close();
}

console.log(`SmolLM2-135M-Instruct Q4_1, node-llama-cpp CPU, ${THREADS} threads, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await measure(1);
await measure(4);
console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
