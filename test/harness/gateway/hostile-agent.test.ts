import { readFileSync } from 'node:fs';
import http, { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MODEL_LOG_MAX_OTHER_LINES } from '../../../harness/gateway/bounds.js';
import { SECRET_MARK } from '../../../harness/gateway/models/conversation.js';
import { createModelHandler } from '../../../harness/gateway/models/proxy.js';
import { GatewayServer } from '../../../harness/gateway/server.js';
import type { GatewayTrial } from '../../../harness/gateway/trials.js';
import { createProviderContext } from '../../../tools/providers/registry.js';
import { ToolService } from '../../../tools/service.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { fileLines } from '../../../trial/log-lines.js';
import { buildTrajectory } from '../../../trial/trajectory/build.js';
import { tempDir } from '../../helpers/data.js';
import { FakeServer } from '../../tools/providers/fakes/index.js';

/**
 * The gateway as a hostile agent finds it, over real HTTP on loopback: a loop of refused model requests,
 * bodies sent all at once or never finished, and upstreams that echo the host's key back (issue 33).
 */

const KEYS = { google: 'AIzaFake/Key+0123456789', serper: 'serper-fake-key-0123456789', openai: 'sk-fake-openai/key-0123456789' };
const forms = (key: string) => [key, encodeURIComponent(key)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A POST as a hostile client sends it: `declared` bytes announced (none: chunked), `sent` bytes of body
 * written, and the rest only when `finish` is called (never, when it is not). Resolves on the answer, or
 * with status 0 when the connection closes without one.
 */
function post(url: string, route: string, token: string, body: Buffer, options: { declared?: number | null; hold?: boolean; agent?: http.Agent } = {}) {
  const target = new URL(url);
  const headers: Record<string, string | number> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (options.declared !== null) headers['content-length'] = options.declared ?? body.length;
  const req = http.request({ host: target.hostname, port: target.port, path: route, method: 'POST', headers, agent: options.agent ?? false });
  const answer = new Promise<Answer>((resolve) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
  });
  if (options.hold) req.write(body);
  else req.end(body);
  return { answer, finish: (rest: Buffer = Buffer.alloc(0)) => req.end(rest), abort: () => req.destroy() };
}

/** The first answer of these, or 'none' when none came within `ms`. */
async function within<T>(answer: Promise<T>, ms: number): Promise<T | 'none'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([answer, new Promise<'none'>((resolve) => (timer = setTimeout(() => resolve('none'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const chat = (content: string, stream = false) => Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content }] }));

/** An OpenAI stand-in: /v1/chat/completions answers as `reply` says; counts what it was sent. */
async function startUpstream(reply: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>) {
  const seen = { requests: 0, bytes: 0 };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.requests++;
    seen.bytes += Buffer.concat(chunks).length;
    await reply(req, res, Buffer.concat(chunks).toString('utf8'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, stop: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

const completion = (content: string) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });

async function startGateway(upstreamUrl: string, options: { requestLimits?: Record<string, unknown>; endpoints?: Record<string, string> } = {}) {
  const dirs = tempDir('aar-h33-gateway-');
  const providers = createProviderContext({
    endpoints: options.endpoints,
    keys: { google: KEYS.google, serper: KEYS.serper },
    httpOptions: { providerDefaults: {}, defaultLimits: { concurrency: 8, timeoutMs: 2000, maxAttempts: 1 }, backoffBaseMs: 1, backoffMaxMs: 5 },
  });
  const tools = options.endpoints ? new ToolService({ mode: 'live', providers }) : new ToolService({ mode: 'replay', store: new ResponseStore(path.join(dirs.dir, 'store')) });
  const models = createModelHandler({ openaiBaseUrl: `${upstreamUrl}/v1`, openaiApiKey: KEYS.openai, anthropicApiKey: 'sk-ant-fake-key-0123456789', maxAttempts: 1, backoff: { backoffBaseMs: 1, backoffMaxMs: 2 } });
  const gateway = new GatewayServer({ tools, models, ...(options.requestLimits ? { requestLimits: options.requestLimits } : {}) } as ConstructorParameters<typeof GatewayServer>[0]);
  const url = await gateway.listenTcp();
  const newTrial = (maxTurns?: number): GatewayTrial =>
    gateway.trials.register({
      trialId: 't',
      toolLogPath: path.join(dirs.dir, `tool_log.${gateway.trials.size}.jsonl`),
      modelLogPath: path.join(dirs.dir, `model_log.${gateway.trials.size}.jsonl`),
      ...(maxTurns === undefined ? {} : { budget: { maxTurns } }),
    });
  return { url, gateway, newTrial, close: async () => (await gateway.close(), dirs.cleanup()) };
}

const lines = (file: string | undefined): string[] => readFileSync(file!, 'utf8').split('\n').filter(Boolean);

describe('hole 1: refused model requests do not grow the record', () => {
  test('1,000 requests past a step budget of 2: every turn is logged, then the first 200 others, the rest only counted', async () => {
    const upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion('ok')));
    const gw = await startGateway(upstream.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const trial = gw.newTrial(2);
      const statuses: Record<number, number> = {};
      // Eight loops at once, as an agent in a hurry; every 50th request is not JSON.
      let next = 0;
      const loop = async () => {
        while (next < 1000) {
          const i = next++;
          const { status } = await post(gw.url, '/openai/v1/chat/completions', trial.token, i % 50 === 49 ? Buffer.from('{not json') : chat(`question ${i}`), { agent }).answer;
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: 8 }, loop));
      expect(statuses[200]).toBe(2);
      expect(statuses[400]).toBe(998);
      expect(upstream.seen.requests).toBe(2);

      const log = lines(trial.modelLogPath).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(log).toHaveLength(2 + MODEL_LOG_MAX_OTHER_LINES);
      expect(log.filter((l) => l.turn !== null).map((l) => l.turn)).toEqual([1, 2]);
      const bound = trial.modelLog.bound!;
      expect(bound.other_lines_max).toBe(MODEL_LOG_MAX_OTHER_LINES);
      expect(bound.requests_not_logged).toBe(998 - MODEL_LOG_MAX_OTHER_LINES);
      expect((bound.by_kind.budget_exceeded ?? 0) + (bound.by_kind.invalid_request ?? 0)).toBe(bound.requests_not_logged);

      // The trajectory is read from the bounded log: a step per line, and a note for the rest.
      const trajectory = buildTrajectory({
        trialId: 't',
        agent: { name: 'command', version: '1', model: null },
        instruction: null,
        modelLog: fileLines(trial.modelLogPath!, 1 << 22),
        toolLog: null,
        notLogged: { modelRequests: bound.requests_not_logged },
      });
      expect(trajectory.steps.length).toBeLessThanOrEqual(2 * (2 + MODEL_LOG_MAX_OTHER_LINES));
      expect(trajectory.notes).toContain(`${bound.requests_not_logged} model requests`);
    } finally {
      agent.destroy();
      await gw.close();
      await upstream.stop();
    }
  });
});

describe('hole 2: a request over the trial\'s budget or limits is refused before its body is read', () => {
  test('with the step budget used up, a request announcing 8 MiB is refused on its headers, its body never sent', async () => {
    const upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion('ok')));
    const gw = await startGateway(upstream.url);
    try {
      const trial = gw.newTrial(0);
      const request = post(gw.url, '/openai/v1/chat/completions', trial.token, Buffer.from('{"model":"gpt-4o-mini","messages":[{"role":"user","content":"'), { declared: 8 * 1024 * 1024, hold: true });
      const answer = await within(request.answer, 3000);
      request.abort();
      expect(answer).not.toBe('none');
      expect(answer).toMatchObject({ status: 400 });
      expect((answer as Answer).body).toContain('aar_budget_exhausted');
      expect(upstream.seen.requests).toBe(0);
    } finally {
      await gw.close();
      await upstream.stop();
    }
  });

  test('model route: past the requests a trial may have in flight, the next is refused at once with 429 and Retry-After; those in flight finish', async () => {
    const upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion('ok')));
    const gw = await startGateway(upstream.url, { requestLimits: { model: { maxInFlight: 2 } } });
    try {
      const trial = gw.newTrial(10);
      const body = chat('x'.repeat(4096));
      const held = [0, 1].map(() => post(gw.url, '/openai/v1/chat/completions', trial.token, body.subarray(0, 100), { declared: body.length, hold: true }));
      await sleep(200);
      const third = await within(post(gw.url, '/openai/v1/chat/completions', trial.token, body).answer, 3000);
      expect(third).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
      expect((third as Answer).body).toContain('aar_in_flight');
      for (const h of held) h.finish(body.subarray(100));
      expect((await Promise.all(held.map((h) => h.answer))).map((a) => a.status)).toEqual([200, 200]);
      expect(trial.requests.model.refused).toEqual({ in_flight: 1 });
      // The slots are free again.
      expect((await post(gw.url, '/openai/v1/chat/completions', trial.token, body).answer).status).toBe(200);
    } finally {
      await gw.close();
      await upstream.stop();
    }
  });

  test('tool route: over the bytes in flight (429) or one request\'s limit (413), refused on the headers; a body of no declared length is cut at the limit', async () => {
    const upstream = await startUpstream((_req, res) => res.writeHead(200).end());
    const gw = await startGateway(upstream.url, { requestLimits: { tools: { maxBytesInFlight: 1024 * 1024, maxBodyBytes: 768 * 1024 } } });
    try {
      const trial = gw.newTrial();
      const big = Buffer.from(JSON.stringify({ tool: 'maps_geocode', args: { address: 'y'.repeat(700 * 1024) } }));
      const holding = post(gw.url, '/v1/tools/call', trial.token, big.subarray(0, 1000), { declared: big.length, hold: true });
      await sleep(200);
      const refused = [
        post(gw.url, '/v1/tools/call', trial.token, big.subarray(0, 1000), { declared: big.length, hold: true }),
        post(gw.url, '/v1/tools/call', trial.token, Buffer.from('{'), { declared: 9 * 1024 * 1024, hold: true }),
      ];
      const [second, tooLarge] = await Promise.all(refused.map((r) => within(r.answer, 3000)));
      for (const r of refused) r.abort();
      expect(second).toMatchObject({ status: 429 });
      expect((second as Answer).body).toContain('hold');
      expect(tooLarge).toMatchObject({ status: 413 });
      holding.finish(big.subarray(1000));
      // Within its limits it is a call (its arguments over the logged size: a tool error).
      expect((await holding.answer).status).toBe(200);
      // Chunked, with no length: refused at the byte past the limit, never read to its end.
      const chunked = post(gw.url, '/v1/tools/call', trial.token, Buffer.alloc(800 * 1024, 'z'), { declared: null, hold: true });
      const cut = await within(chunked.answer, 3000);
      chunked.abort();
      expect(cut).not.toBe('none');
      expect([0, 413]).toContain((cut as Answer).status);
      expect(trial.requests.tools.refused).toEqual({ bytes_in_flight: 1, too_large: 2 });
      expect(lines(trial.toolLogPath)).toHaveLength(1);
    } finally {
      await gw.close();
      await upstream.stop();
    }
  });
});

describe('hole 3: the host\'s keys never come back, whatever an upstream echoes', () => {
  test('tool providers echoing their request (the key in a URL, in headers): the agent\'s answers and the tool log hold no key', async () => {
    const echoGoogle = await new FakeServer('echo-google', (req) => ({
      body: { status: 'REQUEST_DENIED', error_message: `The provided API key is invalid for GET ${req.path}?${new URLSearchParams(req.query).toString()}` },
    })).start();
    const echoSerper = await new FakeServer('echo-serper', (req) => ({ body: { organic: [{ title: 'echo', link: 'https://example.org/', snippet: `you sent ${JSON.stringify(req.headers)}`, position: 1 }] } })).start();
    const upstream = await startUpstream((_req, res) => res.writeHead(200).end());
    const gw = await startGateway(upstream.url, { endpoints: { googleMaps: echoGoogle.url, serper: echoSerper.url } });
    try {
      const trial = gw.newTrial();
      const answers: string[] = [];
      for (const call of [
        { tool: 'maps_geocode', args: { address: 'Eiffel Tower' } },
        { tool: 'web_search', args: { query: 'everest height' } },
        // The agent's own token in its arguments.
        { tool: 'maps_geocode', args: { address: `my token is ${trial.token}` } },
      ]) {
        answers.push((await post(gw.url, '/v1/tools/call', trial.token, Buffer.from(JSON.stringify(call))).answer).body);
      }
      // The upstreams did get the keys: the echo is real.
      expect(echoGoogle.requests()[0]!.query.key).toBe(KEYS.google);
      expect(answers[0]).toContain('key=' + SECRET_MARK);
      expect(answers[1]).toContain(SECRET_MARK);
      const log = readFileSync(trial.toolLogPath, 'utf8');
      for (const text of [...answers, log]) {
        for (const form of [...forms(KEYS.google), ...forms(KEYS.serper), trial.token]) expect(text).not.toContain(form);
      }
    } finally {
      await gw.close();
      await echoGoogle.stop();
      await echoSerper.stop();
      await upstream.stop();
    }
  });

  test('a model upstream echoing the Authorization header: streamed and split mid-key, in an error body and a header: masked for the agent and in the model log', async () => {
    const upstream = await startUpstream(async (req, res, body) => {
      const auth = String(req.headers.authorization);
      const { messages, stream } = JSON.parse(body) as { messages: { content: string }[]; stream?: boolean };
      const ask = messages[0]!.content;
      if (ask === 'error') {
        res.writeHead(401, { 'content-type': 'application/json', 'x-echo-authorization': auth });
        return void res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${auth}` } }));
      }
      if (ask === 'server error') {
        res.writeHead(503, { 'content-type': 'text/html' });
        return void res.end(`<h1>Bad gateway</h1><pre>Authorization: ${auth}</pre>`);
      }
      if (!stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(completion(`you sent ${auth}`));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: `you sent ${auth}` } }] })}\n\n`;
      const cut = event.indexOf(KEYS.openai) + 9;
      res.write(event.slice(0, cut));
      await sleep(50);
      res.write(event.slice(cut));
      res.end(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } })}\n\ndata: [DONE]\n\n`);
    });
    const gw = await startGateway(upstream.url);
    try {
      const trial = gw.newTrial(10);
      const answers: Answer[] = [];
      for (const [ask, stream] of [['hello', true], ['hello', false], ['error', false], ['server error', false], [`my token: ${trial.token}`, false]] as const) {
        answers.push(await post(gw.url, '/openai/v1/chat/completions', trial.token, chat(ask, stream)).answer);
      }
      expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 503, 200]);
      expect(answers[0]!.body).toContain(`you sent Bearer ${SECRET_MARK}`);
      expect(answers[2]!.headers['x-echo-authorization']).toBe(`Bearer ${SECRET_MARK}`);
      const log = readFileSync(trial.modelLogPath!, 'utf8');
      for (const text of [...answers.map((a) => a.body + JSON.stringify(a.headers)), log]) {
        for (const form of [...forms(KEYS.openai), trial.token]) expect(text).not.toContain(form);
      }
    } finally {
      await gw.close();
      await upstream.stop();
    }
  });
});
