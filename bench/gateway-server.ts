/**
 * The gateway as its own process, for bench:gateway: replay mode on the example store, on TCP loopback,
 * with one registered trial. With `--anthropic-base-url URL` it also proxies model traffic there (the
 * host key `bench-host-key`), recording the conversation unless `--record off` (no cap: the bench
 * measures the recording); `--max-turns N` gives the trial a step budget of N model turns. Prints `{"url", "token", "cliToken"}`
 * as one line, then serves until stdin closes, then prints `{"model_log_bytes", "model_log_lines"}`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createModelHandler } from '../harness/gateway/models/proxy.js';
import { GatewayServer } from '../harness/gateway/server.js';
import { packagePath } from '../paths.js';
import { ToolService } from '../tools/service.js';
import { ResponseStore } from '../tools/store/store.js';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const anthropicBaseUrl = option('--anthropic-base-url');
const models = anthropicBaseUrl ? createModelHandler({ anthropicBaseUrl, anthropicApiKey: 'bench-host-key', maxAttempts: 1, recordConversation: option('--record') !== 'off', modelLogMaxBytes: 1 << 30 }) : undefined;

const dir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-gw-'));
const gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(packagePath('tools', 'stores', 'examples')) }), models });
const url = await gateway.listenTcp();
const modelLogPath = path.join(dir, 'model_log.jsonl');
const maxTurns = option('--max-turns');
const trial = gateway.trials.register({ trialId: 'bench', toolLogPath: path.join(dir, 'tool_log.jsonl'), modelLogPath, ...(maxTurns === undefined ? {} : { budget: { maxTurns: Number(maxTurns) } }) });
// The `tools` command's own calls go to a trial of their own: the first one is past its tool-log bound of calls.
const cliTrial = gateway.trials.register({ trialId: 'bench-cli', toolLogPath: path.join(dir, 'cli_tool_log.jsonl') });
process.stdout.write(JSON.stringify({ url, token: trial.token, cliToken: cliTrial.token }) + '\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void gateway.close().then(() => {
    const log = existsSync(modelLogPath) ? readFileSync(modelLogPath) : Buffer.alloc(0);
    process.stdout.write(JSON.stringify({ model_log_bytes: log.length, model_log_lines: log.toString('utf8').split('\n').filter(Boolean).length }) + '\n');
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
