/**
 * bench:in-flight: many trials in flight on one machine's Docker engine. A scripted model answers each call
 * after a delay (2 s); each trial's agent (a `command` agent: a shell script with curl) makes `--steps` model
 * calls and `--tool-calls` tool calls (countries_population, live on a fake upstream), then answers. A job of `--trials` trials at `--concurrency` runs through `aar run` in a process of its own (its
 * CPU and peak memory by GNU time; the gateway is part of that process). Printed: the achieved rate against
 * the ideal (concurrency / trial time, the trial time being the steps' model delays), the trials in flight
 * (mean and peak, from the trials' own start and end times), harness CPU per model call and per tool call
 * (from two more jobs of the same shape: model calls only, and neither), and the peak RSS of `aar run`.
 * Goals: >= 0.9 of the ideal rate, harness RSS < 1 GB.
 *
 *   npm run bench:in-flight [-- --trials 256] [-- --concurrency 64] [-- --steps 20] [-- --tool-calls 5] [-- --delay-ms 2000] [-- --main-only] [-- --keep]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { stringify } from 'yaml';
import { ensureBaseImage } from '../images/build.js';
import { packagePath } from '../paths.js';
import { loadJobResults } from '../verifier/results.js';
import { startScriptedModelServer } from '../test/doubles/scripted-model/index.js';
import { restCountriesHandler } from '../test/tools/providers/fakes/data-apis.js';
import { startFakeServer } from '../test/tools/providers/fakes/server.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const trials = flag('--trials', 256);
const concurrency = flag('--concurrency', 64);
const steps = flag('--steps', 20);
/** Tool calls per trial (the example leg's step budget is 10). */
const toolCalls = Math.min(flag('--tool-calls', 5), steps);
const delayMs = flag('--delay-ms', 2000);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-in-flight-'));

/**
 * The agent, a shell script with curl (light, so the machine's CPU goes to the harness and the engine, not to
 * starting an agent): `steps` model calls (or, without them, the same waits), a tool call after each of the
 * first `tools` of them, then the answer.
 */
const AGENT = `
steps=$1; tools=$2; model=$3; delay=$4; i=0
while [ $i -lt $steps ]; do
  if [ "$model" = 1 ]; then
    curl -sf -X POST "$AAR_GATEWAY_URL/anthropic/v1/messages" -H "x-api-key: $AAR_TRIAL_TOKEN" -H 'anthropic-version: 2023-06-01' \\
      -H 'content-type: application/json' -d '{"model":"claude-sonnet-4-6","max_tokens":64,"messages":[{"role":"user","content":"go"}]}' >/dev/null || exit 1
  else sleep "$delay"; fi
  if [ $i -lt "$tools" ]; then
    out=$(curl -sf -X POST "$AAR_GATEWAY_URL/v1/tools/call" -H "authorization: Bearer $AAR_TRIAL_TOKEN" -H 'content-type: application/json' \\
      -d '{"tool":"countries_population","args":{"country":"Denmark"}}') || exit 1
    case "$out" in *'"ok":true'*) ;; *) echo "$out" >&2; exit 1 ;; esac
  fi
  i=$((i + 1))
done
echo 6011488 > /app/answer.txt
`;

interface JobRun {
  name: string;
  seconds: number;
  cpuS: number;
  rssMb: number;
  finished: number;
  statuses: Record<string, number>;
  meanInFlight: number;
  peakInFlight: number;
  meanAgentS: number;
}

async function runJobOf(name: string, model: boolean, tools: boolean, endpoints: Record<string, string>, modelUrl: string): Promise<JobRun> {
  const script = Buffer.from(AGENT).toString('base64');
  const command = `echo ${script} | base64 -d > /tmp/agent.sh && exec sh /tmp/agent.sh ${steps} ${tools ? toolCalls : 0} ${model ? 1 : 0} ${delayMs / 1000}`;
  const config = path.join(tmp, `${name}.yaml`);
  writeFileSync(
    config,
    stringify({
      name,
      output: path.join(tmp, 'jobs'),
      tasks: { path: packagePath('tasks', 'examples'), ids: ['examples-dag/medium/sample_002'] },
      attempts: trials,
      concurrency,
      timeout_s: 300,
      // Model turns are the step budget: room for every call the agent makes.
      budget: { steps: steps + 1 },
      infra_retries: 1,
      resources: { memory_mb: 256, cpus: 0.5, pids: 128 },
      tools: { mode: 'live', endpoints },
      models: { anthropic_base_url: modelUrl },
      agents: [{ name: 'command', id: 'scripted', options: { command } }],
    }),
  );
  const timeFile = path.join(tmp, `${name}-time.txt`);
  const started = Date.now();
  const child = await execa('/usr/bin/time', ['-f', '%U %S %M', '-o', timeFile, process.execPath, packagePath('dist', 'harness', 'cli', 'main.js'), 'run', config, '--progress', 'quiet', '--no-report'], {
    // Live tools want their keys set; only countries_population is called (on the fake), so any value does.
    env: { GOOGLE_API_KEY: 'unused', SERPER_API_KEY: 'unused', OPENAI_API_KEY: 'unused', ANTHROPIC_API_KEY: 'scripted' },
    reject: false,
    stdout: 'inherit',
    stderr: 'inherit',
  });
  const seconds = (Date.now() - started) / 1000;
  if (child.exitCode !== 0) console.warn(`${name}: aar run exited ${child.exitCode}`);
  const [user, system, maxRssKb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  const results = loadJobResults(path.join(tmp, 'jobs', name));
  const statuses: Record<string, number> = {};
  for (const r of results) statuses[r.record.status] = (statuses[r.record.status] ?? 0) + 1;
  // Trials in flight, from each trial's own start and end: the mean over the span from the first start to the last end.
  const spans = results.map((r) => [Date.parse(r.record.started_at), Date.parse(r.record.finished_at)] as const);
  const first = Math.min(...spans.map((s) => s[0]));
  const last = Math.max(...spans.map((s) => s[1]));
  const busy = spans.reduce((n, [a, b]) => n + (b - a), 0);
  const edges = spans.flatMap(([a, b]) => [[a, 1], [b, -1]] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  const agentS = results.map((r) => r.record.timings?.agent_s ?? 0);
  return {
    name,
    seconds,
    cpuS: user + system,
    rssMb: maxRssKb / 1024,
    finished: results.length,
    statuses,
    meanInFlight: busy / Math.max(1, last - first),
    peakInFlight: peak,
    meanAgentS: agentS.reduce((a, b) => a + b, 0) / Math.max(1, agentS.length),
  };
}

const f = (x: number, d = 2): string => x.toFixed(d);

try {
  await ensureBaseImage();
  const countries = await startFakeServer('rest-countries', restCountriesHandler);
  const model = await startScriptedModelServer({ script: [{ text: 'next' }], delayMs });
  const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  try {
    console.log(`bench:in-flight: ${trials} trials at concurrency ${concurrency}, ${steps} model calls of ${delayMs} ms and ${toolCalls} tool calls each; load before: ${load()}`);
    const endpoints = { restCountries: `${countries.url}/v3.1` };
    const main = await runJobOf('in-flight', true, true, endpoints, model.anthropicBaseUrl);
    const runs = [main];
    if (!argv.includes('--main-only')) {
      runs.push(await runJobOf('model-only', true, false, endpoints, model.anthropicBaseUrl));
      runs.push(await runJobOf('no-calls', false, false, endpoints, model.anthropicBaseUrl));
    }
    console.log(`load after: ${load()}`);
    const idealTrialS = (steps * delayMs) / 1000;
    const idealRate = concurrency / idealTrialS;
    console.log('\n| job | trials finished | statuses | wall s | rate trials/s | ideal rate | achieved / ideal | in flight mean / peak | mean agent s | harness CPU s | harness peak RSS MB |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of runs) {
      const rate = r.finished / r.seconds;
      console.log(
        `| ${r.name} | ${r.finished}/${trials} | ${Object.entries(r.statuses).map(([k, v]) => `${k} ${v}`).join(', ')} | ${f(r.seconds, 1)} | ${f(rate)} | ${f(idealRate)} | ${f(rate / idealRate)} | ${f(r.meanInFlight, 1)} / ${r.peakInFlight} | ${f(r.meanAgentS)} | ${f(r.cpuS, 1)} | ${f(r.rssMb, 0)} |`,
      );
    }
    const incomplete = runs.filter((r) => r.finished !== trials || r.statuses.completed !== trials);
    if (incomplete.length) console.log(`\nNOT MET: ${incomplete.map((r) => r.name).join(', ')} did not complete every trial (the figures below count calls that were not all made)`);
    if (runs.length === 3) {
      const modelCalls = trials * steps;
      const toolCallsAll = trials * toolCalls;
      const [withTools, modelOnly, none] = runs;
      console.log(`\nharness CPU per model call: ${f(((modelOnly.cpuS - none.cpuS) / modelCalls) * 1000, 1)} ms ((model-only - no-calls) / ${modelCalls} calls)`);
      console.log(`harness CPU per tool call:  ${f(((withTools.cpuS - modelOnly.cpuS) / toolCallsAll) * 1000, 1)} ms ((in-flight - model-only) / ${toolCallsAll} calls)`);
      console.log(`harness CPU per trial, lifecycle only: ${f((none.cpuS / trials) * 1000, 0)} ms (no-calls / ${trials} trials)`);
    }
    console.log(`ideal rate: concurrency / (steps x model delay) = ${concurrency} / ${f(idealTrialS, 1)} s; the gateway runs inside aar run (one process, one RSS)`);
  } finally {
    await model.stop();
    await countries.stop();
  }
} finally {
  if (argv.includes('--keep')) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
