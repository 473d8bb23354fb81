import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ToolLogBudget } from '../../../harness/gateway/bounds.js';
import { GatewayServer } from '../../../harness/gateway/server.js';
import { argsForLog, toolLogLine } from '../../../harness/gateway/tool-log.js';
import { ToolService, type ToolCallOutcome } from '../../../tools/service.js';
import { ResponseStore } from '../../../tools/store/store.js';
import {
  LOG_CUT_MARK,
  LOGGED_ARGS_MAX_CHARS,
  LOGGED_NAME_MAX_CHARS,
  RESULT_PREVIEW_CHARS,
  TOOL_LOG_LINE_MAX_BYTES,
  TOOL_LOG_MAX_BYTES,
  TOOL_LOG_MAX_CALLS,
} from '../../../trial/tool-log.js';
import { tempDir } from '../../helpers/data.js';
import { EXAMPLE_STORE } from '../../helpers/jobs.js';

const outcome = (text: string, over: Partial<ToolCallOutcome> = {}): ToolCallOutcome => ({ tool: 'web_search', ok: true, text, truncated: false, fullLength: text.length, source: 'store', ...over });

describe('one tool-log line stays within its bound, cut with a marker', () => {
  test('arguments over the log limit are logged with each long string cut, and their length as sent', () => {
    const args = { query: 'danube '.repeat(5000), page: 2 };
    const line = JSON.parse(toolLogLine('web_search', args, outcome('ok'), 1));
    expect(line.args.page).toBe(2);
    expect(line.args.query.endsWith(LOG_CUT_MARK)).toBe(true);
    expect(line.args.query.startsWith('danube danube')).toBe(true);
    expect(line.args_full_len).toBe(JSON.stringify(args).length);
    // Arguments within the limit are logged as sent, with no length field.
    const small = JSON.parse(toolLogLine('web_search', { query: 'danube' }, outcome('ok'), 1));
    expect(small.args).toEqual({ query: 'danube' });
    expect(small).not.toHaveProperty('args_full_len');
  });

  test('arguments that stay too long with their strings cut are logged as {}', () => {
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]));
    expect(argsForLog(many)).toEqual({ args: {}, fullLength: JSON.stringify(many).length });
  });

  test('a worst-case line (every field at its limit, every character escaped) fits TOOL_LOG_LINE_MAX_BYTES', () => {
    const escaped = '\u0001'.repeat(300_000);
    const args = { url: escaped, query: escaped, more: Array.from({ length: 40 }, () => escaped.slice(0, 2000)) };
    const text = toolLogLine(escaped, args, outcome(escaped, { resolvedUrl: escaped, providerError: escaped }), 1);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TOOL_LOG_LINE_MAX_BYTES);
    const line = JSON.parse(text);
    expect(line.tool).toBe('\u0001'.repeat(LOGGED_NAME_MAX_CHARS) + LOG_CUT_MARK);
    expect(line.result_preview).toHaveLength(RESULT_PREVIEW_CHARS);
    expect(JSON.stringify(line.args).length).toBeLessThanOrEqual(LOGGED_ARGS_MAX_CHARS);
    for (const field of ['url', 'resolved_url', 'provider_error']) expect(line[field].endsWith(LOG_CUT_MARK)).toBe(true);
  });
});

describe('a trial\'s tool-log budget', () => {
  test('past the call bound: the first refused call is logged, later ones only counted', () => {
    const budget = new ToolLogBudget(2, 1 << 30);
    for (let i = 0; i < 2; i++) {
      expect(budget.reserve()).toEqual({ ok: true });
      budget.commit(100);
    }
    expect(budget.reserve()).toEqual({ ok: false, reached: 'calls', logIt: true });
    budget.commit(50);
    expect(budget.reserve()).toEqual({ ok: false, reached: 'calls', logIt: false });
    expect(budget.reserve()).toEqual({ ok: false, reached: 'calls', logIt: false });
    expect(budget.bound).toEqual({ reached: 'calls', calls_not_logged: 2 });
    expect(budget.bytes).toBe(250);
  });

  test('calls running at once hold room: they cannot pass the byte bound together', () => {
    const budget = new ToolLogBudget(1000, 5 * TOOL_LOG_LINE_MAX_BYTES);
    const granted = Array.from({ length: 10 }, () => budget.reserve()).filter((r) => r.ok).length;
    // Four lines of room for four calls, the fifth for the refusal line.
    expect(granted).toBe(4);
    expect(budget.bound?.reached).toBe('bytes');
  });

  test('a request that ends without an answer frees its room', () => {
    const budget = new ToolLogBudget(1, 1 << 30);
    expect(budget.reserve().ok).toBe(true);
    budget.release();
    expect(budget.reserve().ok).toBe(true);
  });
});

describe('the gateway enforces the bounds over HTTP; the trial goes on', () => {
  const dirs = tempDir('aar-log-bounds-');
  let gateway: GatewayServer;
  let url: string;
  beforeAll(async () => {
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(EXAMPLE_STORE) }) });
    url = await gateway.listenTcp();
  });
  afterAll(async () => {
    await gateway.close();
    dirs.cleanup();
  });
  const post = (token: string, body: unknown) =>
    fetch(url + '/v1/tools/call', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<{ ok: boolean; text: string }>,
    );

  test(`at most ${TOOL_LOG_MAX_CALLS} calls run; the next is refused and logged, later ones refused unlogged`, async () => {
    const trial = gateway.trials.register({ trialId: 'calls', toolLogPath: path.join(dirs.dir, 'calls.jsonl') });
    for (let i = 0; i < TOOL_LOG_MAX_CALLS; i++) expect((await post(trial.token, { tool: 'maps_geocode', args: { address: 'Eiffel Tower, Paris' } })).ok).toBe(true);
    const refused = await post(trial.token, { tool: 'maps_geocode', args: { address: 'Eiffel Tower, Paris' } });
    expect(refused.ok).toBe(false);
    expect(refused.text).toMatch(/^Error: the call was refused: this trial has made 2000 tool calls/);
    for (let i = 0; i < 5; i++) expect((await post(trial.token, { tool: 'maps_geocode', args: { address: 'x' } })).ok).toBe(false);
    const lines = readFileSync(trial.toolLogPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(TOOL_LOG_MAX_CALLS + 1);
    expect(lines.at(-1)).toMatchObject({ tool: '', refused: true, success: false });
    expect(trial.toolLog.bound).toEqual({ reached: 'calls', calls_not_logged: 5 });
  });

  test(`the log stops growing before ${TOOL_LOG_MAX_BYTES} bytes; large arguments are logged cut`, async () => {
    const trial = gateway.trials.register({ trialId: 'bytes', toolLogPath: path.join(dirs.dir, 'bytes.jsonl') });
    // Just under the log's argument limit, so each line is long; every 100th call sends 250 KB of arguments.
    const query = (i: number) => (i % 100 === 0 ? 'q'.repeat(250_000) : `${i} `.padEnd(LOGGED_ARGS_MAX_CHARS - 20, 'x'));
    let refusedAt = -1;
    for (let i = 0; i < 1500 && refusedAt < 0; i++) if (!(await post(trial.token, { tool: 'no_such_tool', args: { query: query(i) } })).text.includes('unknown tool')) refusedAt = i;
    expect(refusedAt).toBeGreaterThan(800);
    expect((await post(trial.token, { tool: 'no_such_tool', args: {} })).text).toMatch(/tool log holds \d+ bytes, near the limit of 16777216/);
    expect(statSync(trial.toolLogPath).size).toBeLessThanOrEqual(TOOL_LOG_MAX_BYTES);
    expect(trial.toolLog.bound).toEqual({ reached: 'bytes', calls_not_logged: 1 });
    const lines = readFileSync(trial.toolLogPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(refusedAt + 1);
    expect(lines[0].args.query).toBe('q'.repeat(1024) + LOG_CUT_MARK);
    expect(lines[0].args_full_len).toBe(250_012);
  });
});

describe('a call still in flight when its trial ends writes nothing into the trial folder', () => {
  const dirs = tempDir('aar-late-call-');
  let gateway: GatewayServer;
  let url: URL;
  beforeAll(async () => {
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(EXAMPLE_STORE) }) });
    url = new URL(await gateway.listenTcp());
  });
  afterAll(async () => {
    await gateway.close();
    dirs.cleanup();
  });

  test('the body ends after unregister: the answer is 410 and the tool log is never created', async () => {
    const trial = gateway.trials.register({ trialId: 'late', toolLogPath: path.join(dirs.dir, 'late.jsonl') });
    const body = JSON.stringify({ tool: 'maps_geocode', args: { address: 'Eiffel Tower, Paris' } });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: '/v1/tools/call', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${trial.token}` } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body, then the trial ends (as when its sandbox is removed), then the rest of the body.
      req.write(body.slice(0, 10), () => {
        setTimeout(() => {
          gateway.trials.unregister(trial.token);
          req.end(body.slice(10));
        }, 100);
      });
    });
    const { status, text } = await answer;
    expect(status).toBe(410);
    expect(JSON.parse(text)).toEqual({ ok: false, error: 'the trial is over' });
    expect(existsSync(trial.toolLogPath)).toBe(false);
    expect(trial.toolCalls).toBe(0);
  });
});
