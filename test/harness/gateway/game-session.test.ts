import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GatewayServer } from '../../../harness/gateway/server.js';
import { WikiraceGame } from '../../../tasks/wikirace/game/game.js';
import { readStateText } from '../../../tasks/wikirace/game/state-text.js';
import { DistanceCache } from '../../../tasks/wikirace/graph/distances.js';
import { createProviderContext } from '../../../tools/providers/registry.js';
import { ToolService } from '../../../tools/service.js';
import { tempDir } from '../../helpers/data.js';
import { testGraph } from '../../helpers/wikirace.js';

const graph = testGraph();
const distances = new DistanceCache(graph);
const dirs = tempDir('aar-gw-game-');
const providers = createProviderContext({ env: {} });
let wikirace: GatewayServer;
let aar: GatewayServer;
const urls: Record<string, string> = {};

beforeAll(async () => {
  wikirace = new GatewayServer({ tools: new ToolService({ mode: 'live', providers, offered: ['wikirace_state', 'wikirace_move'] }) });
  aar = new GatewayServer({ tools: new ToolService({ mode: 'live', providers }) });
  urls.wikirace = await wikirace.listenTcp();
  urls.aar = await aar.listenTcp();
});
afterAll(async () => {
  await Promise.all([wikirace.close(), aar.close()]);
  dirs.cleanup();
});

let trialNo = 0;
function trialWithGame(gateway: GatewayServer, source: string) {
  const id = `g${++trialNo}`;
  const toolLogPath = path.join(dirs.dir, `${id}-tools.jsonl`);
  writeFileSync(toolLogPath, '');
  const trajectoryPath = path.join(dirs.dir, `${id}-trajectory.jsonl`);
  const session = new WikiraceGame({ graph, distances, source, target: 'Page 40', stepBudget: 30, seed: 1, trajectoryPath });
  return { ...gateway.trials.register({ trialId: id, toolLogPath, session }), trajectoryPath };
}

const call = async (url: string, token: string, tool: string, args: unknown) =>
  (await (await fetch(`${url}/v1/tools/call`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ tool, args }) })).json()) as { ok: boolean; text: string };

describe('game tools through the gateway: state kept per trial on the host', () => {
  test('each trial plays its own game; calls are logged on the host like any tool call', async () => {
    const a = trialWithGame(wikirace, 'Page 1');
    const b = trialWithGame(wikirace, 'Page 2');
    expect((await call(urls.wikirace, a.token, 'wikirace_move', { page: 'Page 8' })).ok).toBe(true);
    const stateA = readStateText((await call(urls.wikirace, a.token, 'wikirace_state', {})).text);
    const stateB = readStateText((await call(urls.wikirace, b.token, 'wikirace_state', {})).text);
    expect(stateA).toMatchObject({ current: 'Page 8', visited: ['Page 1', 'Page 8'] });
    expect(stateB).toMatchObject({ current: 'Page 2', visited: ['Page 2'] });
    const log = readFileSync(a.toolLogPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(log.map((l) => [l.tool, l.success])).toEqual([['wikirace_move', true], ['wikirace_state', true]]);
    expect(readFileSync(a.trajectoryPath, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readFileSync(b.trajectoryPath, 'utf8')).toBe('');
  });

  test('arguments are checked before the game sees them; a forged page is refused', async () => {
    const t = trialWithGame(wikirace, 'Page 1');
    expect(await call(urls.wikirace, t.token, 'wikirace_move', {})).toMatchObject({ ok: false, text: expect.stringMatching(/^Error: invalid arguments for wikirace_move: page/) });
    expect(await call(urls.wikirace, t.token, 'wikirace_move', { page: 'Page 40' })).toMatchObject({ ok: false, text: expect.stringMatching(/not among the links available on 'Page 1'/) });
    expect(readFileSync(t.trajectoryPath, 'utf8')).toBe('');
  });

  test('a trial without a game has no state; an AAR gateway does not offer the game tools', async () => {
    const plain = wikirace.trials.register({ trialId: 'plain', toolLogPath: path.join(dirs.dir, 'plain.jsonl') });
    expect(await call(urls.wikirace, plain.token, 'wikirace_state', {})).toMatchObject({ ok: false, text: 'Error: wikirace_state has no state in this trial' });
    const inAar = trialWithGame(aar, 'Page 1');
    expect(await call(urls.aar, inAar.token, 'wikirace_state', {})).toMatchObject({ ok: false, text: expect.stringMatching(/^Error: unknown tool 'wikirace_state'. Available: fetch_webpage, /) });
  });
});
