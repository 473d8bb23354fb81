import { jest } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { ANSWER_LIMIT_BYTES, cutMarker, LOG_LIMIT_BYTES } from '../../../trial/copy-limits.js';
import { loadJobResults } from '../../../verifier/results.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { harnessContainers, writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
jest.setTimeout(300_000);

describeDocker('what comes back from the container is bounded (Docker)', () => {
  const tmp = tempDir('aar-h9a-bounded-');
  afterAll(() => tmp.cleanup());

  test('a 50 MB answer.txt and 40 MB of stdout: cut, marked, listed in trial.json, and the answer still read', async () => {
    const answerSize = 50_000_001;
    const stdoutSize = 40_000_000;
    const command = [
      'printf 6 > /app/answer.txt',
      `head -c ${answerSize - 1} /dev/zero | tr '\\0' ' ' >> /app/answer.txt`,
      `head -c ${stdoutSize} /dev/zero | tr '\\0' x`,
      'echo fine >&2',
    ].join('; ');
    const config = writeJobConfig(tmp.dir, {
      name: 'h9a-bounded',
      tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
      agents: [{ name: 'command', id: 'flood', options: { command } }],
    }, 'bounded.yaml');
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    const [result] = loadJobResults(summary.jobDir);
    expect(result.record.status).toBe('completed');
    // The spaces past the answer's limit are read past (whitespace: the reference strips it), not lost.
    expect(result.record.cut_files).toEqual([
      { file: 'agent/stdout.log', size: stdoutSize, kept: LOG_LIMIT_BYTES },
      { file: 'answer.txt', size: answerSize, kept: ANSWER_LIMIT_BYTES, blank: answerSize - ANSWER_LIMIT_BYTES },
    ]);
    expect(statSync(path.join(result.dir, 'answer.txt')).size).toBe(ANSWER_LIMIT_BYTES);
    // The cut answer is read as the reference reads any answer: "6" and spaces, stripped.
    expect(result.score).toMatchObject({ agent_answer: '6', fa: 1 });
    const stdout = path.join(result.dir, 'agent', 'stdout.log');
    const marker = cutMarker(stdoutSize, LOG_LIMIT_BYTES);
    expect(statSync(stdout).size).toBe(LOG_LIMIT_BYTES + Buffer.byteLength(marker));
    expect(readFileSync(stdout, 'utf8').endsWith(marker)).toBe(true);
    expect(readFileSync(path.join(result.dir, 'agent', 'stderr.log'), 'utf8')).toBe('fine\n');
    expect(await harnessContainers('h9a-bounded')).toEqual([]);
  });

  test('answers as the reference reads them: 5,000 spaces then 6 is correct; a long answer is cut and says so', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'h9a-padded',
      tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
      agents: [
        { name: 'command', id: 'padded', options: { command: `head -c 5000 /dev/zero | tr '\\0' ' ' > /app/answer.txt; printf 6 >> /app/answer.txt` } },
        { name: 'command', id: 'long', options: { command: `printf 6 > /app/answer.txt; head -c 5000 /dev/zero | tr '\\0' 7 >> /app/answer.txt` } },
      ],
    }, 'padded.yaml');
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    const [long, padded] = loadJobResults(summary.jobDir).sort((a, b) => (a.record.agent.id < b.record.agent.id ? -1 : 1));
    expect(padded.record.cut_files).toEqual([{ file: 'answer.txt', size: 5001, kept: 1, blank: 5000 }]);
    expect(padded.score).toMatchObject({ status: 'correct', agent_answer: '6', fa: 1 });
    expect(long.record.cut_files).toEqual([{ file: 'answer.txt', size: 5001, kept: ANSWER_LIMIT_BYTES }]);
    expect(long.score).toMatchObject({ status: 'unknown', fa: 0, status_reason: `answer.txt was cut at ${ANSWER_LIMIT_BYTES} of 5001 bytes (the answer limit is 4096 bytes): not a single digit` });
  });
});
