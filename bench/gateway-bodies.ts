/**
 * bench:gateway-bodies: what large request bodies sent all at once cost the gateway (issue 33). The gateway
 * runs as its own process (bench/gateway-server.ts, one trial, the model route proxying to a small
 * Anthropic stand-in on loopback); a client sends `--requests` (default 32) requests of `--mib` MiB
 * (default 8) at the same time, on each route in turn, each time to a fresh gateway process:
 *
 *   tools             POST /v1/tools/call with an 8 MiB address (over the arguments' limit: a tool error)
 *   model, refused    POST /anthropic/v1/messages with the trial's step budget used up (--max-turns 0)
 *   model, in budget  the same with room for every request (--max-turns 1000): forwarded upstream
 *
 * Printed per route: the answers' HTTP statuses, the gateway's resident memory before and at its peak
 * (VmHWM of /proc/<pid>/status), the wall time, and the model log's size afterwards. Then the refused-request
 * flood of bench:model-flood without the container in the way: 8 keep-alive clients on the host post small
 * model requests for `--flood-seconds` (default 30) to a gateway whose trial has a step budget of 10: the
 * requests answered, the model log's lines and bytes, the gateway's peak memory.
 *
 *   npm run bench:gateway-bodies [-- --requests 32] [-- --mib 8] [-- --flood-seconds 30]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { packagePath } from '../paths.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const requests = flag('--requests', 32);
const floodSeconds = flag('--flood-seconds', 30);
const bodyBytes = flag('--mib', 8) * 1024 * 1024;

const answer = JSON.stringify({ id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 1 } });
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answer);
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

/** A JSON body of exactly `bodyBytes` bytes: `prefix` + a string of x + `suffix`. */
const bodyOf = (prefix: string, suffix: string): Buffer => Buffer.from(prefix + 'x'.repeat(bodyBytes - prefix.length - suffix.length) + suffix);
const ROUTES = [
  { name: 'tools', path: '/v1/tools/call', maxTurns: undefined, body: bodyOf('{"tool":"maps_geocode","args":{"address":"', '"}}') },
  { name: 'model, refused', path: '/anthropic/v1/messages', maxTurns: 0, body: bodyOf('{"model":"claude-sonnet-4-6","max_tokens":16,"messages":[{"role":"user","content":"', '"}]}') },
  { name: 'model, in budget', path: '/anthropic/v1/messages', maxTurns: 1000, body: bodyOf('{"model":"claude-sonnet-4-6","max_tokens":16,"messages":[{"role":"user","content":"', '"}]}') },
];

const memoryOf = (pid: number): { rssMb: number; peakMb: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
};

/** A gateway process (bench/gateway-server.ts) on the stand-in upstream, its trial's step budget `maxTurns`. */
async function startGateway(maxTurns: number | undefined) {
  const args = [packagePath('dist', 'bench', 'gateway-server.js'), '--anthropic-base-url', upstreamUrl, ...(maxTurns === undefined ? [] : ['--max-turns', String(maxTurns)])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { url, token } = JSON.parse((await lines.next()).value as string) as { url: string; token: string };
  await new Promise((r) => setTimeout(r, 500));
  return {
    url,
    token,
    memory: () => memoryOf(child.pid!),
    stop: async () => {
      child.stdin!.end();
      return JSON.parse((await lines.next()).value as string) as { model_log_bytes: number; model_log_lines: number };
    },
  };
}

function post(url: URL, path: string, token: string, body: Buffer, agent: http.Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'anthropic-version': '2023-06-01', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    // A gateway that answers before it reads the body may close the connection under the upload.
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

console.log(`${requests} requests of ${bodyBytes / 1024 / 1024} MiB at once, per route, each to a fresh gateway process; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| route | answers (HTTP status: count) | gateway RSS before | gateway peak RSS | wall | model_log.jsonl |');
console.log('|---|---|---|---|---|---|');
try {
  for (const route of ROUTES) {
    const gateway = await startGateway(route.maxTurns);
    const before = gateway.memory();
    const agent = new http.Agent({ keepAlive: false, maxSockets: requests });
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: requests }, () => post(new URL(gateway.url), route.path, gateway.token, route.body, agent)));
    const wall = (performance.now() - started) / 1000;
    const after = gateway.memory();
    agent.destroy();
    const log = await gateway.stop();
    const counts: Record<number, number> = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    const answers = Object.entries(counts).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`| ${route.name} | ${answers} | ${before.rssMb.toFixed(0)} MB | ${after.peakMb.toFixed(0)} MB | ${wall.toFixed(2)} s | ${log.model_log_lines} lines, ${(log.model_log_bytes / 1024).toFixed(1)} KB |`);
  }

  const gateway = await startGateway(10);
  const before = gateway.memory();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const small = Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'What is the elevation of the Eiffel Tower?' }] }));
  const until = Date.now() + floodSeconds * 1000;
  const statuses: Record<number, number> = {};
  const client = async () => {
    while (Date.now() < until) {
      const status = await post(new URL(gateway.url), '/anthropic/v1/messages', gateway.token, small, agent);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  const after = gateway.memory();
  agent.destroy();
  const log = await gateway.stop();
  console.log(
    `\nrefused-request flood, ${floodSeconds} s, 8 keep-alive clients, step budget 10: answers ${JSON.stringify(statuses)}; model_log.jsonl ${log.model_log_lines} lines, ` +
      `${(log.model_log_bytes / 1024 / 1024).toFixed(2)} MB; gateway RSS ${before.rssMb.toFixed(0)} MB before, peak ${after.peakMb.toFixed(0)} MB; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
} finally {
  upstream.close();
  upstream.closeAllConnections();
}
