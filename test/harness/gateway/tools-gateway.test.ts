import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GatewayServer } from '../../../harness/gateway/server.js';
import { ToolService } from '../../../tools/service.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { fakeProviderContext, startFakeUpstreams, type FakeUpstreams } from '../../tools/providers/fakes/index.js';

const CLI = path.join(REPO_ROOT, 'dist', 'tools-cli.cjs');

let fakes: FakeUpstreams;
let gateway: GatewayServer;
let url: string;
let socketPath: string;
const dirs = tempDir('aar-gw-test-');

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: fakeProviderContext(fakes) }) });
  url = await gateway.listenTcp();
  socketPath = await gateway.listenSocket(path.join(dirs.dir, 'gw.sock'));
});
afterAll(async () => {
  await gateway.close();
  await fakes.stop();
  dirs.cleanup();
});

let trialNo = 0;
const newTrial = () => gateway.trials.register({ trialId: `t${++trialNo}`, toolLogPath: path.join(dirs.dir, `t${trialNo}.jsonl`) });
const logOf = (trial: { toolLogPath: string }) => readFileSync(trial.toolLogPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

const post = (token: string | undefined, route: string, body: unknown) =>
  fetch(url + route, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

describe('the tool gateway over HTTP', () => {
  test('refuses calls without a valid trial token', async () => {
    expect((await post(undefined, '/v1/tools/call', { tool: 'maps_geocode', args: { address: 'Paris' } })).status).toBe(401);
    expect((await post('aar-forged', '/v1/tools/call', { tool: 'maps_geocode', args: { address: 'Paris' } })).status).toBe(401);
    const trial = newTrial();
    gateway.trials.unregister(trial.token);
    expect((await post(trial.token, '/v1/tools/call', { tool: 'maps_geocode', args: {} })).status).toBe(401);
    expect(await (await fetch(url + '/healthz')).json()).toEqual({ ok: true, mode: 'live' });
  });

  test('logs each call on the host in the reference format plus our fields', async () => {
    const trial = newTrial();
    const reply = await (await post(trial.token, '/v1/tools/call', { tool: 'fetch_webpage', args: { url: 'https://en.m.wikipedia.org/wiki/Mount_Everest' } })).json();
    expect(reply).toMatchObject({ ok: true, tool: 'fetch_webpage', truncated: false });
    await post(trial.token, '/v1/tools/call', { tool: 'maps_geocode', args: { address: '' } });
    const [fetchLine, badLine] = logOf(trial);
    expect(Object.keys(fetchLine).slice(0, 7)).toEqual(['tool', 'args', 'success', 'result_preview', 'result_len', 'ts', 'url']);
    expect(fetchLine).toMatchObject({
      tool: 'fetch_webpage',
      success: true,
      url: 'https://en.m.wikipedia.org/wiki/Mount_Everest',
      resolved_url: 'https://en.wikipedia.org/wiki/Mount_Everest',
      source: expect.stringMatching(/provider|cache/),
      truncated: false,
    });
    expect(fetchLine.result_preview).toBe(reply.text.slice(0, 2000));
    expect(fetchLine.result_len).toBe([...reply.text].length);
    expect(typeof fetchLine.latency_ms).toBe('number');
    expect(badLine).toMatchObject({ tool: 'maps_geocode', success: false, args: { address: '' } });
    expect(badLine).not.toHaveProperty('url');
    expect(trial.toolCalls).toBe(2);
  });

  test('a report of a tool that does not run in the container is refused and logged as refused', async () => {
    const trial = newTrial();
    const forged = await (await post(trial.token, '/v1/tools/report', { tool: 'stock_historical_price', args: { symbol: 'AAPL' }, ok: true, text: '189.5' })).json();
    expect(forged).toMatchObject({ ok: false, tool: 'stock_historical_price' });
    expect(forged.text).toMatch(/^Error: only tools that run in the container/);
    const viaCall = await (await post(trial.token, '/v1/tools/call', { tool: 'python_execute_code', args: { code: 'print(1)' } })).json();
    expect(viaCall.ok).toBe(false);
    await post(trial.token, '/v1/tools/call', { tool: 'no_such_tool', args: {} });
    await post(trial.token, '/v1/tools/call', { tool: 'maps_geocode', args: { address: '' } });
    const log = logOf(trial);
    expect(log.map((l) => [l.tool, l.success, l.refused])).toEqual([
      ['stock_historical_price', false, true],
      ['python_execute_code', false, true],
      ['no_such_tool', false, true],
      ['maps_geocode', false, undefined],
    ]);
    expect(log[0].result_preview).toBe(forged.text);
  });

  test('arguments nested too deep or too large are a tool error, logged as refused without them', async () => {
    const trial = newTrial();
    const raw = (body: string) =>
      fetch(url + '/v1/tools/call', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${trial.token}` }, body }).then((r) => r.json());
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const deep = await raw(`{"tool":"web_search","args":{"query":${nested(4_000)}}}`);
    expect(deep).toMatchObject({ ok: false, tool: 'web_search' });
    expect(deep.text).toBe('Error: web_search was refused: the arguments nest deeper than 64 levels');
    const started = performance.now();
    const deeper = await raw(`{"args":{"query":${nested(3_000_000)}},"tool":"web_search"}`);
    expect(performance.now() - started).toBeLessThan(5_000); // JSON.parse alone takes about 10 s on this
    expect(deeper).toMatchObject({ ok: false, tool: 'web_search' });
    const large = await raw(JSON.stringify({ tool: 'web_search', args: { query: 'x'.repeat(300 * 1024) } }));
    expect(large.text).toMatch(/^Error: web_search was refused: the arguments are \d+ characters of JSON, over the limit of 262144$/);
    const fine = await raw(JSON.stringify({ tool: 'web_search', args: { query: 'danube', extra: nested(10) } }));
    expect(fine.text).not.toMatch(/refused/);
    const log = logOf(trial);
    expect(log.map((l) => [l.tool, l.refused, JSON.stringify(l.args)])).toEqual([
      ['web_search', true, '{}'],
      ['web_search', true, '{}'],
      ['web_search', true, '{}'],
      ['web_search', undefined, JSON.stringify({ query: 'danube', extra: nested(10) })],
    ]);
  });

  test('fetch_webpage cannot reach the host: a loopback target is a tool error the agent sees', async () => {
    const trial = newTrial();
    const gatewayPort = new URL(url).port;
    for (const target of [`http://127.0.0.1:${gatewayPort}/healthz`, `http://localhost:${gatewayPort}/healthz`, `http://0x7f000001:${gatewayPort}/healthz`]) {
      const reply = await (await post(trial.token, '/v1/tools/call', { tool: 'fetch_webpage', args: { url: target } })).json();
      expect(reply.ok).toBe(false);
      expect(reply.text).toMatch(/^Error: fetching .* failed: .*127\.0\.0\.1 is a loopback address, not a public one/);
      expect(reply.text).not.toContain('"mode"');
    }
    expect(logOf(trial).map((l) => [l.tool, l.success])).toEqual(Array(3).fill(['fetch_webpage', false]));
  });

  test('concurrent trials write their logs without interleaving or loss', async () => {
    const trials = Array.from({ length: 8 }, newTrial);
    await Promise.all(
      trials.flatMap((t, i) =>
        Array.from({ length: 40 }, (_, j) => post(t.token, '/v1/tools/call', { tool: 'web_search', args: { query: `trial ${i} call ${j}` } }).then((r) => r.json())),
      ),
    );
    trials.forEach((t, i) => {
      const lines = logOf(t);
      expect(lines).toHaveLength(40);
      expect(new Set(lines.map((l) => l.args.query))).toEqual(new Set(Array.from({ length: 40 }, (_, j) => `trial ${i} call ${j}`)));
      expect(lines.every((l) => l.success === true)).toBe(true);
    });
  });
});

describe('the in-container tools command, as a real process against the gateway', () => {
  // Asynchronous: the gateway answering the command runs in this very process.
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });

  test('lists the tools and explains one, without a gateway', async () => {
    const list = await run(['--list'], {});
    expect(list.status).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(21);
    const game = await run(['--list'], { AAR_TOOLS: 'wikirace_state,wikirace_move' });
    expect(game.stdout).toBe('wikirace_state\nwikirace_move\n');
    const help = await run(['serper_search', '--help'], {});
    expect(help.stdout).toContain("tools web_search '{\"query\":\"tallest mountain in Europe\"}'");
    expect(help.stdout).toContain('serper_search is another name for web_search');
  });

  test('calls a tool over TCP and over the Unix socket; errors exit non-zero', async () => {
    const trial = newTrial();
    const tcp = { AAR_GATEWAY_URL: url, AAR_TRIAL_TOKEN: trial.token };
    const ok = await run(['maps_geocode', '{"address": "Paris"}'], tcp);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).results[0].formatted_address).toBe('Paris, France');
    const viaSocket = await run(['countries_population', '{"country": "Denmark"}'], { AAR_GATEWAY_SOCKET: socketPath, AAR_TRIAL_TOKEN: trial.token });
    expect(viaSocket.status).toBe(0);
    expect(JSON.parse(viaSocket.stdout)).toEqual({ country: 'Denmark', population: 6011488 });
    const failed = await run(['maps_geocode', '{"address": ""}'], tcp);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/^Error: invalid arguments for maps_geocode/);
    const badJson = await run(['maps_geocode', '{address: Paris}'], tcp);
    expect(badJson.status).toBe(2);
    expect(badJson.stdout).toMatch(/^Error: invalid JSON arguments/);
    const noToken = await run(['maps_geocode', '{"address": "Paris"}'], { AAR_GATEWAY_URL: url });
    expect(noToken.status).toBe(3);
    expect(noToken.stderr).toMatch(/AAR_TRIAL_TOKEN is not set/);
    const forged = await run(['maps_geocode', '{"address": "Paris"}'], { AAR_GATEWAY_URL: url, AAR_TRIAL_TOKEN: 'aar-forged' });
    expect(forged.status).toBe(3);
    expect(forged.stderr).toMatch(/refused the call \(401\)/);
    expect(logOf(trial).map((l) => [l.tool, l.success])).toEqual([
      ['maps_geocode', true],
      ['countries_population', true],
      ['maps_geocode', false],
    ]);
  });

  test('batch mode: many calls in one process, JSON Lines in and out, each logged', async () => {
    const trial = newTrial();
    const env = { AAR_GATEWAY_URL: url, AAR_TRIAL_TOKEN: trial.token };
    const input = [
      JSON.stringify({ tool: 'maps_geocode', args: { address: 'Paris' } }),
      'not json',
      JSON.stringify({ tool: 'python_execute_code', args: { code: 'print(2 + 3)' } }),
      JSON.stringify({ tool: 'maps_geocode', args: { address: '' } }),
    ].join('\n');
    const r = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, [CLI, '--batch'], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } }, (error, stdout) =>
        resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout }),
      );
      child.stdin!.end(input);
    });
    expect(r.status).toBe(0);
    const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(replies.map((x) => [x.ok, x.tool])).toEqual([
      [true, 'maps_geocode'],
      [false, null],
      [true, 'python_execute_code'],
      [false, 'maps_geocode'],
    ]);
    expect(replies[1].text).toMatch(/^Error: invalid JSON request/);
    expect(replies[2].text).toBe('5');
    expect(logOf(trial).map((l) => l.tool)).toEqual(['maps_geocode', 'python_execute_code', 'maps_geocode']);
  });

  test('python_execute_code runs locally and is reported to the gateway for the log', async () => {
    const trial = newTrial();
    const env = { AAR_GATEWAY_URL: url, AAR_TRIAL_TOKEN: trial.token };
    const r = await run(['python_execute_code', '{"code": "print(6 * 7)"}'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('42\n');
    // A program that ran is a successful call whatever its exit code (as the reference logs it); the text says the code.
    const crash = await run(['python_execute_code', '{"code": "1/0"}'], env);
    expect(crash.status).toBe(0);
    expect(crash.stdout).toMatch(/^Exit code: 1\n[\s\S]*ZeroDivisionError/);
    const slow = await run(['python_execute_code', '{"code": "import time; time.sleep(5)", "timeout_seconds": 0.5}'], env);
    expect(slow.stdout).toBe('Error: code execution timed out after 0.5s\n');
    const log = logOf(trial);
    expect(log.map((l) => [l.tool, l.success, l.source])).toEqual([
      ['python_execute_code', true, 'container'],
      ['python_execute_code', true, 'container'],
      ['python_execute_code', false, 'container'],
    ]);
    expect(log[0]).toMatchObject({ args: { code: 'print(6 * 7)' }, result_preview: '42', result_len: 2 });
  });
});
