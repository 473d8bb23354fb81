/**
 * bench:model-flood: the refused-model-request flood of issue 33 through a real trial. A `command` agent in
 * Docker on the example leg examples-linear/easy/sample_001 posts `POST /openai/v1/chat/completions` in a
 * loop for `--seconds` (default 60), `--parallel` at a time (default 1), under a step budget of `--steps`
 * (default 10): every request past the tenth is refused as over budget. The upstream is a small OpenAI
 * stand-in on loopback. `aar run` runs the job as its own process under GNU time; printed: its peak resident
 * memory, the requests the agent made and how they were answered, model_log.jsonl's and trajectory.json's
 * size and lines, trial.json's `model_log_bound`, then `aar verify` on the job (exit status, its verdict line)
 * and `aar export --format harbor` under GNU time (peak resident memory, the size written).
 *
 *   npm run bench:model-flood [-- --seconds 60] [-- --steps 10] [-- --parallel 1]
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { stringify } from 'yaml';
import { packagePath } from '../paths.js';
import { fileLines } from '../trial/log-lines.js';
import { loadJobResults } from '../verifier/results.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const seconds = flag('--seconds', 60);
const steps = flag('--steps', 10);
const parallel = flag('--parallel', 1);
const HOST_KEY = 'sk-bench-flood-host-key-0123456789';

const script = `
const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the elevation of the Eiffel Tower?' }] });
const post = () => fetch(process.env.AAR_GATEWAY_URL + '/openai/v1/chat/completions', {
  method: 'POST', headers: { authorization: 'Bearer ' + process.env.AAR_TRIAL_TOKEN, 'content-type': 'application/json' }, body,
}).then(async (r) => { await r.arrayBuffer(); return r.status; }, () => 0);
const seen = {};
const until = Date.now() + ${seconds} * 1000;
const worker = async () => { while (Date.now() < until) { const s = await post(); seen[s] = (seen[s] || 0) + 1; } };
Promise.all(Array.from({ length: ${parallel} }, worker)).then(() => {
  console.log(JSON.stringify(seen));
  require('fs').writeFileSync('/app/answer.txt', '3');
});
`;

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'I will look it up.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 20, completion_tokens: 6, total_tokens: 26 },
});
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completion);
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const lineCount = (file: string): number => {
  let n = 0;
  for (const line of fileLines(file, Number.MAX_SAFE_INTEGER) ?? []) n += line ? 1 : 0;
  return n;
};
const peakOf = (timeFile: string) => Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) / 1024;
const folderBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-model-flood-'));
const aar = (args: string[], timeFile: string) =>
  execa('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, packagePath('dist', 'harness', 'cli', 'main.js'), ...args], { reject: false, env: { OPENAI_API_KEY: HOST_KEY } });
try {
  const config = path.join(tmp, 'model-flood.yaml');
  writeFileSync(
    config,
    stringify({
      name: 'model-flood',
      output: path.join(tmp, 'jobs'),
      tasks: { path: packagePath('tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
      agents: [{ name: 'command', id: 'flood', options: { command: `echo ${Buffer.from(script).toString('base64')} | base64 -d > /tmp/a.js && node /tmp/a.js` } }],
      timeout_s: seconds + 120,
      budget: { steps },
      concurrency: 1,
      infra_retries: 0,
      resources: { memory_mb: 1024, cpus: 1, pids: 256 },
      tools: { mode: 'replay', store: packagePath('tools', 'stores', 'examples') },
      models: { openai_base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1` },
    }),
  );
  const timeFile = path.join(tmp, 'time.txt');
  const started = Date.now();
  const run = await aar(['run', config, '--progress', 'quiet', '--no-report'], timeFile);
  const runSeconds = (Date.now() - started) / 1000;
  const jobDir = path.join(tmp, 'jobs', 'model-flood');
  const [trial] = loadJobResults(jobDir);
  if (!trial) throw new Error(`aar run wrote no trial (exit ${run.exitCode}): ${run.stderr.split('\n').slice(-3).join(' ')}`);
  const stdout = path.join(trial.dir, 'agent', 'stdout.log');
  const modelLog = path.join(trial.dir, 'model_log.jsonl');
  const trajectory = path.join(trial.dir, 'trajectory.json');
  console.log(`model flood: ${seconds} s of POST /openai/v1/chat/completions, ${parallel} at a time, step budget ${steps}, through \`aar run\` on examples-linear/easy/sample_001`);
  console.log(`aar run: exit ${run.exitCode}, ${runSeconds.toFixed(1)} s; peak resident memory ${peakOf(timeFile).toFixed(0)} MB`);
  console.log(`the agent saw (HTTP status: requests): ${existsSync(stdout) ? readFileSync(stdout, 'utf8').trim().split('\n').at(-1) : '(no output kept)'}`);
  console.log(existsSync(modelLog) ? `model_log.jsonl: ${mb(statSync(modelLog).size)}, ${lineCount(modelLog)} lines` : 'model_log.jsonl: none');
  console.log(existsSync(trajectory) ? `trajectory.json: ${mb(statSync(trajectory).size)}` : 'trajectory.json: none');
  console.log(`trial folder: ${mb(folderBytes(trial.dir))}; trial.json model_log_bound: ${JSON.stringify((trial.record as Record<string, unknown>).model_log_bound ?? null)}; status ${trial.record.status}, run.steps ${trial.record.run.steps}`);

  const verify = await aar(['verify', jobDir], timeFile);
  console.log(`aar verify: exit ${verify.exitCode}, peak resident memory ${peakOf(timeFile).toFixed(0)} MB; ${verify.stdout.trim().split('\n').at(-1)}`);
  const out = path.join(tmp, 'export');
  const exported = await aar(['export', jobDir, '--format', 'harbor', '--out', out], timeFile);
  console.log(
    `aar export --format harbor: exit ${exported.exitCode}, peak resident memory ${peakOf(timeFile).toFixed(0)} MB, ${existsSync(out) ? mb(folderBytes(out)) : 'nothing'} written` +
      (exported.exitCode ? `: ${exported.stderr.trim().split('\n')[0]}` : ''),
  );
} finally {
  upstream.close();
  upstream.closeAllConnections();
  rmSync(tmp, { recursive: true, force: true });
}
