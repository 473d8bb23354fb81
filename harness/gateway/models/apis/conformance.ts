/**
 * The model API conformance suite: what every model API (anthropic, openai, a plugin's) must do for the
 * gateway to proxy it, count it and log it, and for the trajectory to read it. Its routes live under
 * `/<id>/`, each counted route has a transcript reader, and its own example exchange goes through a real
 * gateway on loopback to a local upstream answering the example: the host's key goes upstream (the trial's
 * does not), the tokens are counted, and the trajectory reads the request's text and the reply back.
 * Library code: Jest runs it for every registered API, `aar plugins check` for a plugin's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceCheck, ConformanceSuite } from '../../../../common/conformance.js';
import { fileLines } from '../../../../trial/log-lines.js';
import { buildTrajectory } from '../../../../trial/trajectory/build.js';
import { transcriptReader } from '../../../../trial/trajectory/readers.js';
import { ResponseStore } from '../../../../tools/store/store.js';
import { ToolService } from '../../../../tools/service.js';
import { GatewayServer } from '../../server.js';
import { createModelHandler } from '../proxy.js';
import { findRoute, modelApi } from './registry.js';
import type { ModelApiModule } from './types.js';

const ID = /^[a-z][a-z0-9-]*$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const HOST_KEY = 'conformance-host-key';

interface Upstream {
  url: string;
  seen: { path: string; headers: IncomingMessage['headers'] }[];
  server: Server;
}

/** A local upstream answering every request with the example response of the route it was sent to. */
async function startUpstream(api: ModelApiModule): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    const route = api.routes.find((r) => (req.url ?? '').split('?')[0]!.endsWith(r.upstreamPath));
    seen.push({ path: req.url ?? '', headers: req.headers });
    const example = route && api.examples[route.api];
    res.writeHead(example ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(example?.response ?? api.errorBody('not_found', `no example for ${req.url}`)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

export function modelApiSuite(api: ModelApiModule): ConformanceSuite {
  const counted = api.routes.filter((r) => r.counted);
  let dir = '';
  let upstream: Upstream | undefined;
  let gateway: GatewayServer | undefined;
  let url = '';
  const checks: ConformanceCheck[] = [
    {
      name: 'its id, base URL and key variable are well formed; its routes live under /<id>/ and are its own',
      run: () => {
        assert.match(api.id, ID);
        assert.match(api.defaultBaseUrl, /^https?:\/\/\S+$/);
        assert.match(api.keyVariable, ENV_NAME);
        assert.ok(api.routes.length > 0, 'no route');
        for (const route of api.routes) {
          assert.ok(route.path.startsWith(`/${api.id}/`), `${route.path}: not under /${api.id}/`);
          assert.ok(route.upstreamPath.startsWith('/'), `${route.path}: upstreamPath ${route.upstreamPath}`);
          assert.equal(findRoute(route.path)?.module, api, `${route.path}: the registry finds another API`);
          assert.equal(modelApi(route.api), api, `${route.api}: the registry finds another API`);
        }
      },
    },
    {
      name: 'each counted route has a transcript reader, registered under its api, and an example exchange',
      run: () => {
        assert.ok(counted.length > 0, 'no counted route (a model turn)');
        for (const route of counted) {
          assert.ok(route.transcript, `${route.api}: no transcript reader`);
          assert.equal(transcriptReader(route.api), route.transcript, `${route.api}: the trajectory would not find its reader`);
          assert.ok(api.examples[route.api], `${route.api}: no example exchange`);
        }
      },
    },
    {
      name: 'its reader finds text in the example request and a reply in the example response',
      run: () => {
        for (const route of counted) {
          const example = api.examples[route.api]!;
          const view = route.transcript!.request(example.request);
          const said = [view.system ?? '', ...view.messages.flatMap((m) => m?.said.map((s) => s.text) ?? [])].filter((t) => t.trim());
          assert.ok(said.length > 0, `${route.api}: the example request reads as no text`);
          const reply = route.transcript!.reply(example.response);
          assert.ok(reply.text.trim() || reply.calls.length, `${route.api}: the example reply reads as empty`);
        }
      },
    },
    {
      name: 'its error body carries the message, its prices and token counts are numbers',
      run: () => {
        assert.match(JSON.stringify(api.errorBody('api_error', 'conformance message')), /conformance message/);
        for (const [model, price] of Object.entries(api.prices)) {
          for (const field of ['input', 'output', 'cached_input'] as const) assert.ok(typeof price[field] === 'number' && price[field] >= 0, `${model}.${field}`);
        }
        const none = api.tokens({});
        for (const [key, value] of Object.entries(none)) assert.equal(value, 0, `tokens({}).${key}`);
        assert.equal(api.assembler(counted[0]!.api).result(), undefined);
      },
    },
    {
      name: 'the gateway proxies its example with the host key, counts it, and the trajectory reads it back',
      async run() {
        for (const route of counted) {
          const trial = gateway!.trials.register({ trialId: `conformance-${route.api}`, toolLogPath: path.join(dir, `${route.api}.tools.jsonl`), modelLogPath: path.join(dir, `${route.api}.model_log.jsonl`) });
          const example = api.examples[route.api]!;
          const res = await fetch(`${url}${route.path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${trial.token}`, 'x-api-key': trial.token }, body: JSON.stringify(example.request) });
          assert.equal(res.status, 200, `${route.path}: HTTP ${res.status} ${await res.clone().text()}`);
          await res.arrayBuffer();
          const sent = upstream!.seen.at(-1)!;
          assert.ok(JSON.stringify(sent.headers).includes(HOST_KEY), `${route.path}: the host key did not go upstream`);
          assert.ok(!JSON.stringify(sent.headers).includes(trial.token), `${route.path}: the trial token went upstream`);
          assert.equal(trial.usage.turns, 1, `${route.path}: not counted as a turn`);
          const log = [...(fileLines(trial.modelLogPath!, 1 << 20) ?? [])];
          assert.equal(log.length, 1, `${route.path}: ${log.length} model log lines`);
          const trajectory = buildTrajectory({ trialId: 'c', agent: { name: 'c', version: '0', model: null }, instruction: null, modelLog: log, toolLog: null });
          const reply = route.transcript!.reply(example.response);
          assert.ok(trajectory.steps.some((s) => s.source === 'agent' && (s.message === reply.text || (s.tool_calls?.length ?? 0) > 0)), `${route.api}: the trajectory does not hold the reply`);
          gateway!.trials.unregister(trial.token);
        }
      },
    },
  ];
  return {
    seam: 'model API',
    entry: api.id,
    checks,
    async before() {
      dir = mkdtempSync(path.join(os.tmpdir(), 'aar-model-api-conf-'));
      upstream = await startUpstream(api);
      const models = createModelHandler({ maxAttempts: 1, ...{ [`${api.id}BaseUrl`]: upstream.url, [`${api.id}ApiKey`]: HOST_KEY } });
      gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(path.join(dir, 'store')) }), models });
      url = await gateway.listenTcp();
    },
    async after() {
      await gateway?.close();
      if (upstream) await new Promise<void>((resolve) => upstream!.server.close(() => resolve()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
