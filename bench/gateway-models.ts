/**
 * bench:gateway's model part: the time of one Claude Code-sized model call (Anthropic Messages, a ~75 KB
 * request: system prompt, 16 tools, 42 messages) sent straight to the scripted model server, and through
 * the gateway process with the conversation recorded and not. The three are sent in turn (on and off in
 * alternating order), so drift hits all alike; the overhead is the gateway's p50 minus the direct p50.
 * Also the recording's own CPU per call, and the model log's bytes per call.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { SecretMask } from '../common/secrets.js';
import { ConversationLog } from '../harness/gateway/models/conversation.js';
import { packagePath } from '../paths.js';
import { startScriptedModelServer } from '../test/doubles/scripted-model/index.js';

const CALLS = 400;

function claudeCodeSizedBody(stream: boolean): string {
  const tools = Array.from({ length: 16 }, (_, i) => ({
    name: i === 0 ? 'Bash' : `Tool${i}`,
    description: `Tool ${i}. ${'Explains at length what the tool does and when to use it. '.repeat(20)}`,
    input_schema: { type: 'object', properties: { command: { type: 'string', description: 'the command' } }, required: ['command'] },
  }));
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Solve the leg in /app/instruction.md' }] }];
  for (let i = 0; i < 20; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `tools fetch_webpage ${i}` } } as never] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'Page text of a fetched article. '.repeat(60) } as never] });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Next step.' }] }, { role: 'user', content: [{ type: 'text', text: 'continue' }] });
  return JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 32000, stream, system: [{ type: 'text', text: 'You are Claude Code. '.repeat(600) }], messages, tools });
}

interface Gateway {
  url: string;
  token: string;
  stop(): Promise<{ model_log_bytes: number; model_log_lines: number }>;
}

async function startGateway(upstream: string, record: boolean): Promise<Gateway> {
  const child = spawn(process.execPath, [packagePath('dist', 'bench', 'gateway-server.js'), '--anthropic-base-url', upstream, '--record', record ? 'on' : 'off'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { url, token } = JSON.parse((await lines.next()).value as string) as { url: string; token: string };
  return {
    url,
    token,
    stop: async () => {
      child.stdin!.end();
      return JSON.parse((await lines.next()).value as string) as { model_log_bytes: number; model_log_lines: number };
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** One call, until the whole answer arrived, in ms. */
function call(base: string, key: string, body: string): Promise<number> {
  const target = new URL(base);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname.replace(/\/$/, '')}/v1/messages`, method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const p50 = (xs: number[]): number => percentile(xs, 50);

/** The recording's own CPU per call, in this process: one line written for this request and a short answer. */
function lineCpuMs(body: string): number {
  const request = JSON.parse(body) as Record<string, unknown>;
  const response = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1, output_tokens: 1 } };
  const entry = { ts: 0, api: 'anthropic-messages', model: 'm', stream: true, status: 200, turn: 1, input_tokens: 1, output_tokens: 1, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0, latency_ms: 1, attempts: 1 };
  const log = new ConversationLog(1 << 30);
  const secrets = new SecretMask().add('bench-host-key');
  const times: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t = performance.now();
    log.line(entry, { request, response }, secrets);
    times.push(performance.now() - t);
  }
  return p50(times.slice(100));
}

export async function benchModelCalls(): Promise<void> {
  const upstream = await startScriptedModelServer({ script: [{ bash: 'ls', say: 'Looking around.' }] });
  const off = await startGateway(upstream.anthropicBaseUrl, false);
  const on = await startGateway(upstream.anthropicBaseUrl, true);
  try {
    for (const stream of [true, false]) {
      const body = claudeCodeSizedBody(stream);
      const targets = { direct: [upstream.anthropicBaseUrl, 'bench-host-key'], off: [`${off.url}/anthropic`, off.token], on: [`${on.url}/anthropic`, on.token] } as const;
      const times: Record<keyof typeof targets, number[]> = { direct: [], off: [], on: [] };
      for (let i = 0; i < 30 + CALLS; i++) {
        for (const name of i % 2 ? (['direct', 'on', 'off'] as const) : (['direct', 'off', 'on'] as const)) {
          const ms = await call(targets[name][0], targets[name][1], body);
          if (i >= 30) times[name].push(ms); // the first 30 warm up
        }
      }
      const d = p50(times.direct);
      console.log(
        `model call (Anthropic Messages, ${stream ? 'streamed' : 'not streamed'}, request ${(body.length / 1024).toFixed(0)} KB), ${CALLS} calls each: ` +
          `direct p50 ${d.toFixed(2)} ms; through the gateway, recording off p50 ${p50(times.off).toFixed(2)} ms (overhead ${(p50(times.off) - d).toFixed(2)} ms), ` +
          `recording on p50 ${p50(times.on).toFixed(2)} ms (overhead ${(p50(times.on) - d).toFixed(2)} ms)`,
      );
      if (stream) console.log(`the recording's own CPU per call (its model-log line for this request, in process, 400 lines): p50 ${lineCpuMs(body).toFixed(2)} ms`);
    }
  } finally {
    agent.destroy();
    const [offLog, onLog] = [await off.stop(), await on.stop()];
    await upstream.stop();
    for (const [name, log] of [['off', offLog], ['on', onLog]] as const) {
      console.log(`model_log.jsonl, recording ${name}: ${log.model_log_lines} lines, ${log.model_log_bytes} bytes, ${(log.model_log_bytes / Math.max(1, log.model_log_lines)).toFixed(0)} bytes per call`);
    }
  }
}
