/**
 * bench:gateway: latency of a cached tool call through the gateway, measured from another process
 * (HTTP keep-alive, as the tools command's batch mode uses it), throughput with 32 concurrent clients,
 * and, reported apart, the `tools` command as a whole process (Node's start included).
 * Goal: cached p50 under 5 ms at the HTTP level. Then the model gateway's overhead per model call with the
 * conversation recorded and not (gateway-models.ts).
 */
import { execFile, spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { packagePath } from '../paths.js';
import { benchModelCalls, percentile } from './gateway-models.js';

const CALL = JSON.stringify({ tool: 'maps_geocode', args: { address: 'Eiffel Tower, Paris' } });
const server = spawn(process.execPath, [packagePath('dist', 'bench', 'gateway-server.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
const { url, token, cliToken } = await new Promise<{ url: string; token: string; cliToken: string }>((resolve) => {
  createInterface({ input: server.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
});
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: '/v1/tools/call', method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(CALL);
  });
}

try {
  for (let i = 0; i < 200; i++) await call(); // warm up: the first call fills the cache
  const sequential: number[] = [];
  for (let i = 0; i < 3000; i++) sequential.push(await call());
  console.log(`cached call, one client, 3000 calls: p50 ${percentile(sequential, 50).toFixed(2)} ms, p99 ${percentile(sequential, 99).toFixed(2)} ms; goal p50 < 5 ms -> ${percentile(sequential, 50) < 5 ? 'met' : 'NOT met'}`);

  const perClient = 300;
  const started = performance.now();
  const concurrent = (await Promise.all(Array.from({ length: 32 }, async () => {
    const own: number[] = [];
    for (let i = 0; i < perClient; i++) own.push(await call());
    return own;
  }))).flat();
  const seconds = (performance.now() - started) / 1000;
  console.log(`32 concurrent clients, ${concurrent.length} calls: ${(concurrent.length / seconds).toFixed(0)} calls/s, p50 ${percentile(concurrent, 50).toFixed(2)} ms, p99 ${percentile(concurrent, 99).toFixed(2)} ms`);

  const cli = packagePath('dist', 'tools-cli.cjs');
  const processes: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [cli, 'maps_geocode', '{"address": "Eiffel Tower, Paris"}'], { env: { PATH: process.env.PATH, AAR_GATEWAY_URL: url, AAR_TRIAL_TOKEN: cliToken } }, (e) => (e ? reject(e) : resolve())),
    );
    processes.push(performance.now() - t);
  }
  console.log(`the tools command as a process (Node start included), 30 calls: p50 ${percentile(processes, 50).toFixed(1)} ms, p99 ${percentile(processes, 99).toFixed(1)} ms`);
} finally {
  agent.destroy();
  server.stdin!.end();
}
await benchModelCalls();
