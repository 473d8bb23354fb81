/**
 * bench:log-flood: the tool-log flood of issue 20 through a real trial. A `command` agent in Docker on the
 * example leg examples-linear/easy/sample_001 makes `--calls` tool calls (default 2,400) each with `--kb` KB
 * of arguments (default 255), `--parallel` at a time (default 1), then writes a wrong answer. `aar run` runs
 * the job as its own process under GNU time; printed: its peak resident memory (goal <= 300 MB), the tool
 * log's size and lines, the trial's status, its score and the bound it reached, and the wall time.
 * Then, as a log written before the bounds (or anywhere else) may be that large, `aar score` on a tool log
 * of the same calls written whole (`--calls` lines of `--kb` KB, about 600 MB by default), as a process
 * under GNU time: its peak resident memory and time (the scorer reads the log line by line).
 *
 *   npm run bench:log-flood [-- --calls 2400] [-- --kb 255] [-- --parallel 1] [-- --no-score-big]
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
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
const calls = flag('--calls', 2400);
const kb = flag('--kb', 255);
const parallel = flag('--parallel', 1);

/** The agent: `parallel` workers share the calls; each call geocodes an address of `kb` KB (a replay miss). */
const script = `
const post = (body) => fetch(process.env.AAR_GATEWAY_URL + '/v1/tools/call', {
  method: 'POST', headers: { authorization: 'Bearer ' + process.env.AAR_TRIAL_TOKEN, 'content-type': 'application/json' }, body,
}).then((r) => r.json());
const body = JSON.stringify({ tool: 'maps_geocode', args: { address: 'x'.repeat(${kb} * 1024 - 14) } });
let next = 0;
const seen = { ok: 0, refused_at_bound: 0, tool_error: 0 };
const worker = async () => {
  while (next++ < ${calls}) {
    const reply = await post(body);
    if (reply.ok) seen.ok++;
    else if (/^Error: the call was refused: this trial/.test(reply.text)) seen.refused_at_bound++;
    else seen.tool_error++;
  }
};
Promise.all(Array.from({ length: ${parallel} }, worker)).then(() => {
  console.log(JSON.stringify(seen));
  require('fs').writeFileSync('/app/answer.txt', '3');
});
`;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-flood-'));
try {
  const config = path.join(tmp, 'flood.yaml');
  writeFileSync(
    config,
    stringify({
      name: 'flood',
      output: path.join(tmp, 'jobs'),
      tasks: { path: packagePath('tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
      agents: [{ name: 'command', id: 'flood', options: { command: `echo ${Buffer.from(script).toString('base64')} | base64 -d > /tmp/a.js && node /tmp/a.js` } }],
      timeout_s: 1800,
      concurrency: 1,
      infra_retries: 0,
      resources: { memory_mb: 1024, cpus: 1, pids: 256 },
      tools: { mode: 'replay', store: packagePath('tools', 'stores', 'examples') },
    }),
  );
  const timeFile = path.join(tmp, 'time.txt');
  const started = Date.now();
  const run = await execa('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, packagePath('dist', 'harness', 'cli', 'main.js'), 'run', config, '--progress', 'quiet', '--no-report'], {
    reject: false,
  });
  const seconds = (Date.now() - started) / 1000;
  const peakMb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) / 1024;
  const [trial] = loadJobResults(path.join(tmp, 'jobs', 'flood'));
  if (!trial) throw new Error(`aar run wrote no trial (exit ${run.exitCode}): ${run.stderr.split('\n').slice(-3).join(' ')}`);
  const log = path.join(trial.dir, 'tool_log.jsonl');
  const score = trial.score as Record<string, unknown> | null;
  // An infrastructure error leaves no tool log and no agent output.
  const lineCount = (file: string): number => {
    let n = 0;
    for (const line of fileLines(file, Number.MAX_SAFE_INTEGER) ?? []) n += line ? 1 : 0;
    return n;
  };
  const stdout = path.join(trial.dir, 'agent', 'stdout.log');
  const agentSaw = existsSync(stdout) ? readFileSync(stdout, 'utf8').trim().split('\n').at(-1) : '(no output kept)';
  console.log(`flood: ${calls} calls of ${kb} KB arguments, ${parallel} at a time (${((calls * kb) / 1024).toFixed(0)} MB sent), through \`aar run\` on examples-linear/easy/sample_001`);
  console.log(`aar run: exit ${run.exitCode}, ${seconds.toFixed(1)} s; peak resident memory ${peakMb.toFixed(0)} MB; goal <= 300 MB -> ${peakMb <= 300 ? 'met' : 'NOT met'}`);
  console.log(
    existsSync(log)
      ? `tool_log.jsonl: ${(statSync(log).size / 1024 / 1024).toFixed(2)} MB, ${lineCount(log)} lines; trial.json tool_log_bound: ${JSON.stringify(trial.record.tool_log_bound ?? null)}`
      : 'tool_log.jsonl: none kept',
  );
  console.log(`the agent saw: ${agentSaw}`);
  console.log(
    `trial: ${trial.record.status}; ` +
      (score
        ? `scored: status ${score.status}, fa ${score.fa}, total_tool_calls ${score.total_tool_calls}, intermediate_rate ${score.intermediate_rate}, near_miss ${score.near_miss}, log_lines_skipped ${score.log_lines_skipped}`
        : `NOT scored (${trial.record.error})`),
  );

  if (!argv.includes('--no-score-big')) {
    const big = path.join(tmp, 'big_tool_log.jsonl');
    const address = 'x'.repeat(kb * 1024 - 14);
    const fd = openSync(big, 'w');
    for (let i = 0; i < calls; i++) {
      writeSync(fd, JSON.stringify({ tool: 'maps_geocode', args: { address }, success: false, result_preview: `Error: no recorded response for maps_geocode ${address.slice(0, 1950)}`, result_len: 8000, ts: 1, source: 'store' }) + '\n');
    }
    closeSync(fd);
    const scoreStarted = Date.now();
    const scored = await execa('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, packagePath('dist', 'harness', 'cli', 'main.js'), 'score', '--leg', path.join(trial.dir, 'leg.json'), '--tool-log', big], { reject: false });
    const scoreMb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) / 1024;
    const fields = scored.exitCode === 0 ? (JSON.parse(scored.stdout) as Record<string, unknown>) : null;
    console.log(
      `aar score on a ${(statSync(big).size / 1024 / 1024).toFixed(0)} MB tool log of ${calls} lines: exit ${scored.exitCode}, ${((Date.now() - scoreStarted) / 1000).toFixed(1)} s, ` +
        `peak resident memory ${scoreMb.toFixed(0)} MB; ${fields ? `total_tool_calls ${fields.total_tool_calls}, log_lines_skipped ${fields.log_lines_skipped}` : scored.stderr.split('\n')[0]}`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
