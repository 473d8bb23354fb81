import { jest } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadJobResults } from '../../../verifier/results.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { harnessContainers, writeJobConfig } from '../../helpers/jobs.js';
import { startFakeUpstreams, withFakeToolKeys } from '../../tools/providers/fakes/index.js';

const HAVE_DOCKER = await dockerAvailable();
jest.setTimeout(300_000);

/** What the agent runs: deep arguments, a forged report of a host tool, and a fetch of the host's loopback. */
const script = (hostPort: number) => `
const post = (route, body) => fetch(process.env.AAR_GATEWAY_URL + route, {
  method: 'POST', headers: { authorization: 'Bearer ' + process.env.AAR_TRIAL_TOKEN, 'content-type': 'application/json' }, body,
}).then((r) => r.json());
(async () => {
  const nested = '['.repeat(4000) + ']'.repeat(4000);
  console.log(JSON.stringify(await post('/v1/tools/call', '{"tool":"countries_population","args":{"country":' + nested + '}}')));
  console.log(JSON.stringify(await post('/v1/tools/report', JSON.stringify({ tool: 'countries_population', args: { country: 'Romania' }, ok: true, text: '19053815' }))));
  console.log(JSON.stringify(await post('/v1/tools/call', JSON.stringify({ tool: 'fetch_webpage', args: { url: 'http://127.0.0.1:${hostPort}/' } }))));
  require('fs').writeFileSync('/app/answer.txt', '3');
})();
`;

(HAVE_DOCKER ? describe : describe.skip)('a hostile agent in Docker changes no score and cannot reach the host', () => {
  const tmp = tempDir('aar-h9a-hostile-');
  afterAll(() => tmp.cleanup());

  test('deep arguments, a forged report and a loopback fetch: refused, logged, the trial scored', async () => {
    const hits: string[] = [];
    const host = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('host secret');
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const fakes = await startFakeUpstreams();
    try {
      const b64 = Buffer.from(script((host.address() as AddressInfo).port)).toString('base64');
      const config = writeJobConfig(tmp.dir, {
        name: 'h9a-hostile',
        tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-dag/medium/sample_002'] },
        tools: { mode: 'live', endpoints: fakes.endpoints },
        agents: [{ name: 'command', id: 'hostile', options: { command: `echo ${b64} | base64 -d > /tmp/a.js && node /tmp/a.js` } }],
      }, 'hostile.yaml');
      const summary = await withFakeToolKeys(() => runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 }));
      const [result] = loadJobResults(summary.jobDir);
      expect(result.record.status).toBe('completed');
      const replies = readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(replies.map((r) => r.ok)).toEqual([false, false, false]);
      expect(replies[0].text).toMatch(/arguments nest deeper than 64 levels/);
      expect(replies[1].text).toMatch(/only tools that run in the container can be reported/);
      expect(replies[2].text).toMatch(/127\.0\.0\.1 is a loopback address, not a public one/);
      expect(hits).toEqual([]);
      const log = readFileSync(path.join(result.dir, 'tool_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(log.map((l) => [l.tool, l.refused ?? false])).toEqual([
        ['countries_population', true],
        ['countries_population', true],
        ['fetch_webpage', false],
      ]);
      // The forged result text never reaches the log, so it cannot count as a value found either.
      expect(readFileSync(path.join(result.dir, 'tool_log.jsonl'), 'utf8')).not.toContain('19053815');
      expect(result.score).toMatchObject({ agent_answer: '3', total_tool_calls: 3, right_tool_calls: 0, log_lines_skipped: 0 });
      expect((result.score as { rcr: number }).rcr).toBe(0);
      expect(await harnessContainers('h9a-hostile')).toEqual([]);
    } finally {
      await fakes.stop();
      await new Promise((resolve) => host.close(resolve));
    }
  });
});
