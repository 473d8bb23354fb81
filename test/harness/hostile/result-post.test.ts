import { jest } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadJobResults, type TrialResult } from '../../../verifier/results.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { harnessContainers, writeJobConfig } from '../../helpers/jobs.js';

/**
 * A hostile `command` agent against the result a trial hands back (`POST /v1/trial/result`, or the files the
 * entrypoint collects): it posts its own result first, naming folders and files it was not asked for, a
 * folder whose last part is `..`, forged timings, an impossible exit status; or it links its log folder to
 * /etc. Every trial ends scored, the gateway's tool log untouched, and nothing lands outside agent/.
 */
const HAVE_DOCKER = await dockerAvailable();
jest.setTimeout(300_000);

const LEG = 'examples-linear/easy/sample_001';
const LEG_FILE = path.join(EXAMPLES_DIR, `${LEG}.json`);
/** One real call through the gateway (replayed from the example store), the only line its log should hold. */
const REAL_CALL = `tools fetch_webpage '{"url": "https://en.wikipedia.org/wiki/Eiffel_Tower"}' > /dev/null`;
const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** A tool log claiming the whole golden trace, as the agent would like it to read. */
const FORGED_LOG = [
  { tool: 'fetch_webpage', args: { url: 'https://en.wikipedia.org/wiki/Eiffel_Tower' }, success: true, url: 'https://en.wikipedia.org/wiki/Eiffel_Tower', result_preview: 'FORGED 1889', result_len: 11, ts: 1 },
  { tool: 'fetch_webpage', args: { url: 'https://en.wikipedia.org/wiki/Gustave_Eiffel' }, success: true, url: 'https://en.wikipedia.org/wiki/Gustave_Eiffel', result_preview: 'FORGED 1832', result_len: 11, ts: 2 },
].map((l) => JSON.stringify(l) + '\n').join('');

/** Posts a result for the trial from inside the container, before the entrypoint can, and prints the reply. */
const POSTER = `
const body = Buffer.from(process.argv[2], 'base64').toString();
fetch(process.env.AAR_GATEWAY_URL + '/v1/trial/result', {
  method: 'POST', headers: { authorization: 'Bearer ' + process.env.AAR_TRIAL_TOKEN, 'content-type': 'application/json' }, body,
}).then(async (r) => console.log('posted', r.status, await r.text()));
`;

interface Forged {
  exit_code?: number | null;
  timed_out?: boolean;
  duration_ms?: number;
  files?: Record<string, string | null>;
  dirs?: Record<string, Record<string, string>>;
}

/** The shell command of an agent that makes the real call, waits `sleepS`, then posts `forged` as its result. */
function poster(forged: Forged, sleepS = 0): string {
  const body = {
    exit_code: 0,
    timed_out: false,
    duration_ms: 1,
    stdout_b64: '',
    stderr_b64: '',
    files: { '/app/answer.txt': b64('6') },
    dirs: {},
    cuts: [],
    ...forged,
  };
  return `${REAL_CALL}; sleep ${sleepS}; echo ${b64(POSTER)} | base64 -d > /tmp/post.js && node /tmp/post.js ${b64(JSON.stringify(body))}; printf 6 > /app/answer.txt`;
}

/** Log folder set-up: a regular file, a link to /etc/passwd, a link to /etc inside it, and a second log folder that is itself a link to /etc. */
const LINKS = 'mkdir -p /app/logs && echo fine > /app/logs/notes.txt && ln -s /etc/passwd /app/logs/passwd && ln -s /etc /app/logs/etc && ln -s /etc /app/etc';

const AGENTS = [
  // The control: the same real call, nothing forged; its tool log is what the gateway writes for that call.
  { name: 'command', id: 'honest', options: { command: `${REAL_CALL}; printf 6 > /app/answer.txt` } },
  {
    name: 'command',
    id: 'dotdot',
    options: {
      command: poster({
        dirs: {
          '/x/..': {
            'tool_log.jsonl': b64(FORGED_LOG),
            'leg.json': b64('{}'),
            'model_log.jsonl': b64('FORGED\n'),
            'planted.txt': b64('FORGED'),
          },
        },
      }),
    },
  },
  {
    name: 'command',
    id: 'unasked',
    options: {
      log_dirs: ['/app/logs'],
      command: poster({
        files: { '/app/answer.txt': b64('6'), '/etc/passwd': b64('FORGED') },
        dirs: {
          '/app/evil': { 'x.txt': b64('FORGED') },
          '/app/logs': {
            'ok.txt': b64('fine'),
            '../../tool_log.jsonl': b64(FORGED_LOG),
            '/abs.txt': b64('FORGED'),
            a: b64('first'),
            'a/b': b64('FORGED'),
          },
        },
      }),
    },
  },
  { name: 'command', id: 'null-exit', options: { command: poster({ exit_code: null, timed_out: false }) } },
  { name: 'command', id: 'fast-clock', options: { command: poster({ duration_ms: 1 }, 3) } },
  { name: 'command', id: 'slow-clock', options: { command: poster({ duration_ms: 1e12 }) } },
  { name: 'command', id: 'claims-timeout', options: { command: poster({ exit_code: null, timed_out: true, duration_ms: 60_000 }) } },
  // The entrypoint collects the log folders (the agent ends normally).
  { name: 'command', id: 'links', options: { log_dirs: ['/app/logs', '/app/etc'], command: `${LINKS}; ${REAL_CALL}; printf 6 > /app/answer.txt` } },
  // The agent kills the entrypoint: no result is posted, the harness copies the folders out of the stopped container.
  { name: 'command', id: 'links-killed', options: { log_dirs: ['/app/logs', '/app/etc'], command: `${LINKS}; ${REAL_CALL}; printf 6 > /app/answer.txt; kill -9 $PPID; sleep 30` } },
];

/** A tool-log line without what changes from run to run (its time, and whether the job's cache answered it). */
const stable = (line: string): Record<string, unknown> => {
  const { ts: _ts, latency_ms: _latency, source: _source, cache_hit: _hit, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return rest;
};
const logLines = (dir: string): Record<string, unknown>[] => readFileSync(path.join(dir, 'tool_log.jsonl'), 'utf8').split('\n').filter(Boolean).map(stable);

/** Every file of a trial folder, relative to it. */
const filesOf = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();

(HAVE_DOCKER ? describe : describe.skip)('a hostile agent cannot bend the result it hands back', () => {
  const tmp = tempDir('aar-i20a-result-post-');
  let results: Map<string, TrialResult>;
  let honestLog: Record<string, unknown>[];

  beforeAll(async () => {
    const config = writeJobConfig(tmp.dir, { name: 'i20a-result-post', tasks: { path: EXAMPLES_DIR, ids: [LEG] }, agents: AGENTS, concurrency: 2 }, 'result-post.yaml');
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    results = new Map(loadJobResults(summary.jobDir).map((r) => [r.record.agent.id, r]));
    honestLog = logLines(results.get('honest')!.dir);
  });
  afterAll(() => tmp.cleanup());

  /** Scored, not an infrastructure error; its tool log is the gateway's (the one real call), its leg the leg's bytes. */
  function expectScoredWithGatewayLog(id: string): TrialResult {
    const result = results.get(id)!;
    expect(result.record.status).not.toBe('infra_error');
    expect(result.score).toMatchObject({ total_tool_calls: 1 });
    expect(logLines(result.dir)).toEqual(honestLog);
    expect(readFileSync(path.join(result.dir, 'tool_log.jsonl'), 'utf8')).not.toContain('FORGED');
    expect(readFileSync(path.join(result.dir, 'leg.json'))).toEqual(readFileSync(LEG_FILE));
    expect(existsSync(path.join(result.dir, 'model_log.jsonl'))).toBe(false);
    return result;
  }

  test('the control: one real call, logged by the gateway, scored', () => {
    expect(honestLog).toEqual([expect.objectContaining({ tool: 'fetch_webpage', args: { url: 'https://en.wikipedia.org/wiki/Eiffel_Tower' } })]);
    expect(results.get('honest')!.record).toMatchObject({ status: 'completed', infra_retries: 0 });
  });

  test('a result folder named "/x/.." writes nothing into the trial folder: the forged tool log, leg and planted file are refused', () => {
    const result = expectScoredWithGatewayLog('dotdot');
    expect(result.record.status).toBe('completed');
    expect(filesOf(result.dir)).toEqual(['agent/stderr.log', 'agent/stdout.log', 'answer.txt', 'instruction.md', 'leg.json', 'score.json', 'tool_log.jsonl', 'trajectory.json', 'trial.json']);
    expect(result.record.refused_files).toEqual([{ path: '/x/../', reason: 'folder not asked for' }]);
    expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8')).toMatch(/^posted 200 /m);
    expect(result.score).toMatchObject({ fa: 1, pvr: 0.5 });
  });

  test('files and folders not asked for, names leaving the folder and clashing names are refused; the rest of the asked folder is kept', () => {
    const result = expectScoredWithGatewayLog('unasked');
    expect(result.record.status).toBe('completed');
    expect(filesOf(path.join(result.dir, 'agent'))).toEqual(['logs/a', 'logs/ok.txt', 'stderr.log', 'stdout.log']);
    expect(readFileSync(path.join(result.dir, 'agent', 'logs', 'ok.txt'), 'utf8')).toBe('fine');
    expect(readFileSync(path.join(result.dir, 'agent', 'logs', 'a'), 'utf8')).toBe('first');
    expect(result.record.refused_files).toEqual(
      expect.arrayContaining([
        { path: '/etc/passwd', reason: 'file not asked for' },
        { path: '/app/evil/', reason: 'folder not asked for' },
        { path: '/app/logs/../../tool_log.jsonl', reason: "'..' in the name" },
        { path: '/app/logs//abs.txt', reason: 'absolute name' },
        { path: '/app/logs/a/b', reason: expect.stringMatching(/^clashes with another collected file/) },
      ]),
    );
    expect(result.record.refused_files).toHaveLength(5);
  });

  test('an impossible result (no exit status, not timed out) is refused at the gateway; the agent goes on and is scored', () => {
    const result = expectScoredWithGatewayLog('null-exit');
    expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8')).toContain('posted 400 ');
    expect(result.record).toMatchObject({ status: 'completed', run: expect.objectContaining({ exit_code: 0 }) });
  });

  test('forged timings: agent_s is the harness\'s clock, the container\'s figure only kept as container_reported_agent_s', () => {
    const fast = expectScoredWithGatewayLog('fast-clock').record.timings;
    expect(fast.agent_s!).toBeGreaterThanOrEqual(3);
    expect(fast.container_reported_agent_s).toBe(0.001);
    const slow = expectScoredWithGatewayLog('slow-clock').record.timings;
    expect(slow.container_reported_agent_s).toBe(1e9);
    expect(slow.agent_s!).toBeLessThan(slow.total_s);
    expect(slow.overhead_s!).toBeGreaterThan(0);
    // A timeout well inside the 60 s limit by the harness's clock is the agent's word, not a timeout.
    const claimed = expectScoredWithGatewayLog('claims-timeout').record;
    expect(claimed).toMatchObject({ status: 'agent_error', error: expect.stringMatching(/^the agent's result claimed a timeout after \d+\.\d s of the 60 s limit$/) });
    expect(results.get('claims-timeout')!.score).toMatchObject({ timed_out: false });
    for (const id of ['fast-clock', 'slow-clock', 'claims-timeout']) {
      const { started_at, finished_at, timings } = results.get(id)!.record;
      expect(timings.agent_s! * 1000).toBeLessThanOrEqual(Date.parse(finished_at) - Date.parse(started_at));
    }
  });

  test('log folders linked to /etc, or holding links, bring back only their regular files (collected in the container, or copied out of a stopped one)', () => {
    for (const id of ['links', 'links-killed']) {
      const result = expectScoredWithGatewayLog(id);
      expect(filesOf(path.join(result.dir, 'agent'))).toEqual(['logs/notes.txt', 'stderr.log', 'stdout.log']);
      expect(readFileSync(path.join(result.dir, 'agent', 'logs', 'notes.txt'), 'utf8')).toBe('fine\n');
      expect(result.score).toMatchObject({ agent_answer: '6', fa: 1 });
    }
    expect(results.get('links')!.record.status).toBe('completed');
    // Killing its own entrypoint is the agent's failure, not the infrastructure's.
    expect(results.get('links-killed')!.record).toMatchObject({ status: 'agent_error', error: 'the agent exited with status 137' });
  });

  test('no container is left', async () => {
    expect(await harnessContainers('i20a-result-post')).toEqual([]);
  });
});
