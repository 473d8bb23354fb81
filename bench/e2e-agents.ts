/**
 * e2e:agents: the real Claude Code and Codex CLI binaries, each in its own trial container, solve an
 * example leg against the scripted model server through the model gateway. Prints one line per agent
 * (FA, turns, tokens, tool calls) and fails unless both score FA 1 and the gateway's turn and token
 * counts equal what the script served.
 *
 *   npm run e2e:agents [-- --agents claude-code,codex] [-- --save-fixtures] [-- --keep-jobs DIR]
 *
 * With --save-fixtures, the requests each CLI sent and its own logs are kept under
 * test/fixtures/agents/<agent>/, for the adapters' tests. With --keep-jobs DIR, the jobs are written to DIR
 * and kept (to look at them: aar view DIR).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { modelHandlerFor } from '../harness/gateway/models/handler.js';
import { keyFingerprint, startScriptedModelServer, type ScriptTurn } from '../test/doubles/scripted-model/index.js';
import { runJob } from '../harness/jobs/job.js';
import { LineReporter } from '../harness/jobs/reporters.js';
import { packagePath } from '../paths.js';
import type { TrialScore } from '../tasks/aar/scoring/score.js';
import { loadJobResults } from '../verifier/results.js';
import { AtifTrajectorySchema, TRAJECTORY_FILE } from '../trial/trajectory/index.js';

const LEG = 'examples-linear/easy/sample_003';
/** The leg's golden path as a model would walk it: fetch the page, look up the price, answer. */
const SCRIPT: ScriptTurn[] = [
  { say: 'Reading the seed page.', bash: `tools fetch_webpage '{"url": "https://en.wikipedia.org/wiki/Apple_Inc."}'` },
  { say: 'Looking up the closing price.', bash: `tools stock_historical_price '{"ticker": "AAPL", "date": "2024-01-12"}'` },
  { say: 'digital_root(185 + 3) = 8.', bash: 'printf 8 > /app/answer.txt', usage: { cached: 600 } },
  { text: 'The passcode is 8; it is in /app/answer.txt.' },
];
const MODELS: Record<string, string> = { 'claude-code': 'claude-sonnet-4-6', codex: 'gpt-5.4' };

const argv = process.argv.slice(2);
const agents = (argv.includes('--agents') ? argv[argv.indexOf('--agents') + 1] : 'claude-code,codex').split(',');
const saveFixtures = argv.includes('--save-fixtures');
const keepJobs = argv.includes('--keep-jobs') ? path.resolve(argv[argv.indexOf('--keep-jobs') + 1]) : null;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-e2e-'));
// The gateway forwards with the host's key; the scripted server checks it is this one and never a trial token.
const HOST_KEY = 'sk-e2e-host-key';
process.env.ANTHROPIC_API_KEY = HOST_KEY;
process.env.OPENAI_API_KEY = HOST_KEY;

let failures = 0;
try {
  for (const agent of agents) {
    const server = await startScriptedModelServer({ script: SCRIPT, requireKey: HOST_KEY });
    try {
      const configPath = path.join(tmp, `${agent}.yaml`);
      writeFileSync(
        configPath,
        stringify({
          name: agent,
          output: keepJobs ?? path.join(tmp, 'jobs'),
          tasks: { path: packagePath('tasks', 'examples'), ids: [LEG] },
          agents: [{ name: agent, model: MODELS[agent] }],
          timeout_s: 300,
          concurrency: 1,
          resources: { memory_mb: 4096, cpus: 2, pids: 1024 },
          tools: { mode: 'replay', store: packagePath('tools', 'stores', 'examples') },
          models: { anthropic_base_url: server.anthropicBaseUrl, openai_base_url: server.openaiBaseUrl },
          infra_retries: 0,
        }),
      );
      const summary = await runJob({ configPath, models: modelHandlerFor, reporter: new LineReporter() });
      const [result] = loadJobResults<TrialScore>(summary.jobDir);
      const score = result?.score;
      const run = result?.record.run;
      const modelRequests = server.requests.filter((r) => r.turn !== undefined).length;
      const modelLogPath = result ? path.join(result.dir, 'model_log.jsonl') : undefined;
      const modelLog = modelLogPath && existsSync(modelLogPath) ? readFileSync(modelLogPath, 'utf8') : '';
      const trajectoryPath = result ? path.join(result.dir, TRAJECTORY_FILE) : undefined;
      const trajectoryText = trajectoryPath && existsSync(trajectoryPath) ? readFileSync(trajectoryPath, 'utf8') : '';
      const trajectory = trajectoryText ? AtifTrajectorySchema.safeParse(JSON.parse(trajectoryText)) : null;
      const modelSteps = trajectory?.success ? trajectory.data.steps.filter((s) => s.llm_call_count === 1) : [];
      const checks = {
        'FA 1': score?.fa === 1,
        'turns = served': run?.steps === server.served.turns && modelRequests === server.served.turns,
        'input tokens = served': run?.input_tokens === server.served.inputTokens,
        'output tokens = served': run?.output_tokens === server.served.outputTokens,
        'cached tokens = served': run?.cached_tokens === server.served.cachedTokens,
        'tool calls logged': (score?.tool_calls ?? 0) >= 2,
        'upstream never saw a trial token': server.requests.every((r) => !r.credential || r.credential.sha256 === keyFingerprint(HOST_KEY)),
        'model log holds the conversation': modelLog.split('\n').filter(Boolean).every((l) => 'request' in (JSON.parse(l) as object)),
        'model log holds no key or trial token': modelLog !== '' && !modelLog.includes(HOST_KEY) && !/aar-[0-9a-f]{48}/.test(modelLog),
        'trajectory.json: one agent step per turn, each tool call answered': modelSteps.length === server.served.turns && modelSteps.every((s) => (s.tool_calls?.length ?? 0) === (s.observation?.results.length ?? 0)),
      };
      const failed = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name);
      failures += failed.length;
      console.log(
        `${agent}: FA ${score?.fa ?? '-'}, turns ${run?.steps ?? '-'} (served ${server.served.turns}), tokens in ${run?.input_tokens ?? '-'} / out ${run?.output_tokens ?? '-'} / cached ${run?.cached_tokens ?? '-'} ` +
          `(served ${server.served.inputTokens} / ${server.served.outputTokens} / ${server.served.cachedTokens}), tool calls ${score?.tool_calls ?? '-'}, ` +
          `model_log.jsonl ${Buffer.byteLength(modelLog)} bytes in ${modelLog.split('\n').filter(Boolean).length} lines, ` +
          `trajectory.json ${Buffer.byteLength(trajectoryText)} bytes (${trajectory?.success ? trajectory.data.steps.length : 0} steps), ` +
          `status ${result?.record.status ?? 'none'}${failed.length ? ` -- FAILED: ${failed.join(', ')}` : ' -- ok'}`,
      );
      if (saveFixtures && result) {
        const dir = packagePath('test', 'fixtures', 'agents', agent);
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'requests.json'), JSON.stringify(server.requests, null, 2) + '\n');
        cpSync(path.join(result.dir, 'agent'), path.join(dir, 'agent'), { recursive: true });
        cpSync(path.join(result.dir, 'model_log.jsonl'), path.join(dir, 'model_log.jsonl'));
        writeFileSync(path.join(dir, 'served.json'), JSON.stringify(server.served, null, 2) + '\n');
        console.log(`  saved ${readdirSync(dir, { recursive: true }).length} fixture files to ${path.relative(packagePath(), dir)}`);
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (failures) {
  console.error(`e2e:agents: ${failures} checks failed`);
  process.exit(1);
}

