import { jest } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { TOOL_LOG_LINE_MAX_BYTES, TOOL_LOG_MAX_BYTES, TOOL_LOG_MAX_CALLS } from '../../../trial/tool-log.js';
import { loadJobResults, type TrialResult } from '../../../verifier/results.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { harnessContainers, writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
jest.setTimeout(600_000);

/** The example leg's golden values (1889, 1832, 33.52, 14; passcode 6), as a hostile agent would plant them. */
const GOLDEN = 'v 1889 1832 33.52 14 6';

/**
 * A node script the `command` agent runs in the container: `calls` tool calls through the gateway (their
 * arguments from `argsOf(i)`), the replies' texts tallied, then the wrong answer 3.
 */
const agentScript = (calls: number, argsOf: string) => `
const post = (body) => fetch(process.env.AAR_GATEWAY_URL + '/v1/tools/call', {
  method: 'POST', headers: { authorization: 'Bearer ' + process.env.AAR_TRIAL_TOKEN, 'content-type': 'application/json' }, body,
}).then((r) => r.json());
const argsOf = ${argsOf};
(async () => {
  const seen = { ok: 0, bound: 0, other: 0 };
  for (let i = 0; i < ${calls}; i++) {
    const [tool, args] = argsOf(i);
    const reply = await post(JSON.stringify({ tool, args }));
    if (reply.ok) seen.ok++;
    else if (/^Error: the call was refused: this trial/.test(reply.text)) seen.bound++;
    else seen.other++;
  }
  console.log(JSON.stringify(seen));
  require('fs').writeFileSync('/app/answer.txt', '3');
})();
`;

const agent = (id: string, script: string) => ({
  name: 'command',
  id,
  options: { command: `echo ${Buffer.from(script).toString('base64')} | base64 -d > /tmp/a.js && node /tmp/a.js` },
});

const AGENTS = [
  // Past the call bound: 2,100 geocodes, every 50th with 255 KB of arguments.
  agent('flood-calls', agentScript(TOOL_LOG_MAX_CALLS + 100, `(i) => ['maps_geocode', { address: i % 50 === 0 ? 'x'.repeat(255 * 1024) : 'Eiffel Tower, Paris' }]`)),
  // Past the byte bound: 1,000 calls of 16,000 characters (logged whole, each line about 18 KB).
  agent('flood-bytes', agentScript(1000, `(i) => ['maps_geocode', { address: i + ' ' + 'y'.repeat(16000) }]`)),
  // Refused names, and an address whose error text echoes it, carrying the golden values.
  agent('golden-names', agentScript(3, `(i) => i < 2 ? [${JSON.stringify(GOLDEN)}, {}] : ['maps_geocode', { address: ${JSON.stringify(GOLDEN)} }]`)),
];

/** The gateway's log of a trial: every line JSON and within the line bound, the whole within the log bound. */
function intactLog(result: TrialResult): Record<string, unknown>[] {
  const file = path.join(result.dir, 'tool_log.jsonl');
  expect(statSync(file).size).toBeLessThanOrEqual(TOOL_LOG_MAX_BYTES);
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(TOOL_LOG_LINE_MAX_BYTES);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

const agentSaw = (result: TrialResult) => JSON.parse(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8').trim().split('\n').at(-1)!);

(HAVE_DOCKER ? describe : describe.skip)('a hostile agent floods or salts its tool log: its trial is scored against it, the log bounded', () => {
  const tmp = tempDir('aar-i20b-flood-');
  let results: Map<string, TrialResult>;
  beforeAll(async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'i20b-flood',
      tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
      agents: AGENTS,
      timeout_s: 300,
    });
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    results = new Map(loadJobResults(summary.jobDir).map((r) => [r.record.agent.id, r]));
  });
  afterAll(() => tmp.cleanup());

  test('2,100 calls, some with 255 KB arguments: 2,000 run, the rest refused, the trial scored', async () => {
    const result = results.get('flood-calls')!;
    expect(result.record.status).toBe('completed');
    expect(result.score).toMatchObject({ status: 'incorrect', fa: 0, total_tool_calls: TOOL_LOG_MAX_CALLS + 1, log_lines_skipped: 0 });
    // Each 255 KB address is a tool error (no recorded response); the others are served.
    expect(agentSaw(result)).toEqual({ ok: TOOL_LOG_MAX_CALLS - 40, other: 40, bound: 100 });
    const log = intactLog(result);
    expect(log).toHaveLength(TOOL_LOG_MAX_CALLS + 1);
    expect(log.at(-1)).toMatchObject({ tool: '', refused: true });
    // The big arguments are in the log cut, with their length as sent.
    expect(log[0]).toMatchObject({ args_full_len: 255 * 1024 + 14 });
    expect((log[0].args as { address: string }).address).toMatch(/^x{1024}…\[cut by aar-harness\]$/);
    expect(result.record).toMatchObject({ tool_log_bound: { reached: 'calls', calls_not_logged: 99 } });
    expect(await harnessContainers('i20b-flood')).toEqual([]);
  });

  test('1,000 calls of 16,000 characters: the log stops near 16 MiB, the rest refused, the trial scored', () => {
    const result = results.get('flood-bytes')!;
    expect(result.record.status).toBe('completed');
    const seen = agentSaw(result);
    expect(seen.bound).toBeGreaterThan(0);
    expect(seen.other + seen.bound).toBe(1000);
    const log = intactLog(result);
    expect(statSync(path.join(result.dir, 'tool_log.jsonl')).size).toBeGreaterThan(TOOL_LOG_MAX_BYTES - 2 * TOOL_LOG_LINE_MAX_BYTES);
    expect(log).toHaveLength(seen.other + 1);
    expect(result.score).toMatchObject({ status: 'incorrect', fa: 0, total_tool_calls: seen.other + 1, log_lines_skipped: 0 });
    expect(result.record).toMatchObject({ tool_log_bound: { reached: 'bytes', calls_not_logged: seen.bound - 1 } });
  });

  test('refused names and echoed errors carrying the golden values earn no value and no near miss', () => {
    const result = results.get('golden-names')!;
    expect(result.record.status).toBe('completed');
    const log = intactLog(result);
    expect(log.map((l) => [l.tool, l.refused ?? false])).toEqual([[GOLDEN, true], [GOLDEN, true], ['maps_geocode', false]]);
    expect(log.map((l) => l.result_preview).join(' ')).toContain('1889');
    expect(result.score).toMatchObject({
      status: 'incorrect',
      total_tool_calls: 3,
      right_tool_calls: 0,
      intermediate_correct: 0,
      intermediate_rate: 0,
      near_miss: false,
      pvr: 0,
    });
  });
});
