import { jest } from '@jest/globals';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { dockerAvailable } from '../../../common/docker.js';
import { MODEL_LOG_MAX_OTHER_LINES } from '../../../harness/gateway/bounds.js';
import { SECRET_MARK } from '../../../harness/gateway/models/conversation.js';
import { modelHandlerFor } from '../../../harness/gateway/models/handler.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { harborExporter } from '../../../verifier/export/harbor/index.js';
import { readExportJob } from '../../../verifier/export/job.js';
import { loadJobResults } from '../../../verifier/results.js';
import { verifyJob } from '../../../verifier/verify.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { harnessContainers, writeJobConfig } from '../../helpers/jobs.js';
import { FakeServer } from '../../tools/providers/fakes/index.js';

const HAVE_DOCKER = await dockerAvailable();
jest.setTimeout(600_000);

/** The host's keys (odd characters, so that their URL-encoded form differs), set for the run only. */
const KEYS = { GOOGLE_API_KEY: 'AIzaFake/Key+0123456789', SERPER_API_KEY: 'serper-fake-key-0123456789', OPENAI_API_KEY: 'sk-fake-openai/key-0123456789' };
const REQUESTS = 600;

/**
 * The agent: REQUESTS model requests in a loop (a step budget of 2 refuses all but the first two), one tool
 * call, and its own token printed, written to its log folder and put in its tool arguments; it prints the
 * replies it got, which would hand it the key if the gateway let an echo through.
 */
const script = `
const post = (route, body) => fetch(process.env.AAR_GATEWAY_URL + route, {
  method: 'POST', headers: { authorization: 'Bearer ' + process.env.AAR_TRIAL_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body),
}).then(async (r) => ({ status: r.status, text: await r.text() }));
(async () => {
  const statuses = {};
  const replies = [];
  for (let i = 0; i < ${REQUESTS}; i++) {
    const r = await post('/openai/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'question ' + i }] });
    statuses[r.status] = (statuses[r.status] || 0) + 1;
    if (r.status === 200) replies.push(r.text);
  }
  replies.push((await post('/v1/tools/call', { tool: 'maps_geocode', args: { address: 'Eiffel Tower ' + process.env.AAR_TRIAL_TOKEN } })).text);
  require('fs').mkdirSync('/app/logs', { recursive: true });
  require('fs').writeFileSync('/app/logs/notes.txt', 'token ' + process.env.AAR_TRIAL_TOKEN + '\\n');
  console.log('my token is ' + process.env.AAR_TRIAL_TOKEN);
  console.log(JSON.stringify({ statuses, replies }));
  require('fs').writeFileSync('/app/answer.txt', '3');
})();
`;

const forms = (key: string) => [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)];
const TOKEN = /aar-[0-9a-f]{48}/;

/** Every file under a folder, with its text. */
function filesOf(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

(HAVE_DOCKER ? describe : describe.skip)('a hostile agent in Docker loops on refused model requests and upstreams echo the host keys', () => {
  const tmp = tempDir('aar-h33-hostile-');
  afterAll(() => tmp.cleanup());

  test('the record stays bounded, no key or token is written anywhere, and the trial verifies and exports, with and without the new fields', async () => {
    const upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const echo = `you sent ${req.headers.authorization}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: echo }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const google = await new FakeServer('echo-google', (req) => ({ body: { status: 'REQUEST_DENIED', error_message: `The provided API key is invalid for GET ${req.path}?${new URLSearchParams(req.query).toString()}` } })).start();
    const saved = Object.fromEntries(Object.keys(KEYS).map((k) => [k, process.env[k]]));
    Object.assign(process.env, KEYS);
    try {
      const config = writeJobConfig(tmp.dir, {
        name: 'h33-hostile',
        tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
        agents: [{ name: 'command', id: 'flood', options: { command: `echo ${Buffer.from(script).toString('base64')} | base64 -d > /tmp/a.js && node /tmp/a.js`, log_dirs: ['/app/logs'] } }],
        budget: { steps: 2 },
        timeout_s: 300,
        tools: { mode: 'live', endpoints: { googleMaps: google.url } },
        models: { openai_base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1` },
      });
      const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10, models: modelHandlerFor });
      const [result] = loadJobResults(summary.jobDir);
      expect(result!.record.status).toBe('completed');
      expect(result!.score).toMatchObject({ agent_answer: '3', total_tool_calls: 1 });

      // The echo was real: the upstreams got the keys.
      expect(google.requests()[0]!.query.key).toBe(KEYS.GOOGLE_API_KEY);
      const stdout = readFileSync(path.join(result!.dir, 'agent', 'stdout.log'), 'utf8').trim().split('\n');
      expect(stdout[0]).toBe(`my token is ${SECRET_MARK}`);
      const seen = JSON.parse(stdout[1]!) as { statuses: Record<string, number>; replies: string[] };
      expect(seen.statuses).toEqual({ 200: 2, 400: REQUESTS - 2 });
      expect(seen.replies[0]).toContain(`you sent Bearer ${SECRET_MARK}`);
      expect(seen.replies[2]).toContain(`key=${SECRET_MARK}`);

      // Hole 1: the turns, then the first 200 refusals; the rest counted in trial.json; the trajectory read from that.
      const modelLog = readFileSync(path.join(result!.dir, 'model_log.jsonl'), 'utf8').trim().split('\n');
      expect(modelLog).toHaveLength(2 + MODEL_LOG_MAX_OTHER_LINES);
      const notLogged = REQUESTS - 2 - MODEL_LOG_MAX_OTHER_LINES;
      expect(result!.record.model_log_bound).toEqual({ other_lines_max: MODEL_LOG_MAX_OTHER_LINES, requests_not_logged: notLogged, by_kind: { budget_exceeded: notLogged } });
      expect(result!.record.run.steps).toBeNull(); // a command agent: its own count, not the gateway's
      const trajectory = JSON.parse(readFileSync(path.join(result!.dir, 'trajectory.json'), 'utf8'));
      expect(trajectory.final_metrics.extra).toMatchObject({ model_calls: 2 + MODEL_LOG_MAX_OTHER_LINES, model_requests_not_logged: notLogged });
      expect(statSync(path.join(result!.dir, 'trajectory.json')).size).toBeLessThan(1024 * 1024);

      // Hole 3: nothing in the job folder holds a key, in any form, or a trial token.
      const files = filesOf(summary.jobDir);
      expect(files.map((f) => path.relative(result!.dir, f.file))).toEqual(expect.arrayContaining(['agent/logs/notes.txt', 'tool_log.jsonl', 'model_log.jsonl', 'trial.json']));
      for (const { file, text } of files) {
        for (const form of Object.values(KEYS).flatMap(forms)) expect([file, text.includes(form)]).toEqual([file, false]);
        expect([file, TOKEN.test(text)]).toEqual([file, false]);
      }

      // Verified as written: masked before it was scored and sealed.
      const verified = await verifyJob(summary.jobDir);
      expect(verified).toMatchObject({ trials: 1, scored: 1, changed: [], tampered: [], failures: [] });
      const exported = readExportJob(summary.jobDir);
      harborExporter.write(exported.job, path.join(tmp.dir, 'harbor'));
      expect(JSON.parse(readFileSync(path.join(tmp.dir, 'harbor', result!.record.trial_id, 'agent', 'trajectory.json'), 'utf8')).final_metrics.extra.model_requests_not_logged).toBe(notLogged);

      // A folder written before the new fields (trial.json is outside the seal) reads, verifies and exports as before.
      const record = JSON.parse(readFileSync(path.join(result!.dir, 'trial.json'), 'utf8'));
      delete record.model_log_bound;
      delete record.requests_refused;
      writeFileSync(path.join(result!.dir, 'trial.json'), JSON.stringify(record, null, 2) + '\n');
      expect(await verifyJob(summary.jobDir)).toMatchObject({ trials: 1, scored: 1, changed: [], tampered: [], failures: [] });
      expect(readExportJob(summary.jobDir).job.trials).toHaveLength(1);
      expect(await harnessContainers('h33-hostile')).toEqual([]);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await google.stop();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
