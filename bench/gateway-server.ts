/**
 * The gateway as its own process, for bench:gateway: replay mode on the example store, on TCP loopback,
 * with one registered trial. Prints `{"url", "token"}` as one line, then serves until stdin closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GatewayServer } from '../harness/gateway/server.js';
import { packagePath } from '../paths.js';
import { ToolService } from '../tools/service.js';
import { ResponseStore } from '../tools/store/store.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-gw-'));
const gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(packagePath('tools', 'stores', 'examples')) }) });
const url = await gateway.listenTcp();
const trial = gateway.trials.register({ trialId: 'bench', toolLogPath: path.join(dir, 'tool_log.jsonl') });
process.stdout.write(JSON.stringify({ url, token: trial.token }) + '\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void gateway.close().then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
