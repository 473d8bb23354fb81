import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WikiraceGame } from '../../../tasks/wikirace/game/game.js';
import { readStateText } from '../../../tasks/wikirace/game/state-text.js';
import { parseTrajectory } from '../../../tasks/wikirace/game/trajectory.js';
import { DistanceCache } from '../../../tasks/wikirace/graph/distances.js';
import { tempDir } from '../../helpers/data.js';
import { testGraph } from '../../helpers/wikirace.js';

const graph = testGraph();
const distances = new DistanceCache(graph);
const tmp = tempDir('aar-wikirace-game-');
afterAll(() => tmp.cleanup());

let games = 0;
function newGame(source: string, target: string, stepBudget = 30, seed = 7): { game: WikiraceGame; trajectory: string } {
  const trajectory = path.join(tmp.dir, `trajectory-${++games}.jsonl`);
  return { game: new WikiraceGame({ graph, distances, source, target, stepBudget, seed, trajectoryPath: trajectory }), trajectory };
}
const distanceTo = (target: string, page: string): number => distances.to(graph.pageOf(target)!)[graph.pageOf(page)!]!;

describe('the WikiRace game on the host', () => {
  test('the state shows current page, target, history and the offered links, never a distance', () => {
    const { game } = newGame('Hub', 'Page 40');
    const state = game.call('wikirace_state', {});
    expect(state.ok).toBe(true);
    const shown = readStateText(state.text);
    expect(shown).toMatchObject({ target: 'Page 40', current: 'Hub', visited: ['Hub'], over: false });
    // Hub links to all 79 pages: 50 offered, the target among them (the nearest), in a seeded order.
    expect(shown.links).toHaveLength(50);
    expect(shown.links).toContain('Page 40');
    expect(state.text).toContain('Available links (50):');
    expect(state.text).not.toMatch(/distance|\bd=|\(\d+ steps? away\)/i);
    const again = newGame('Hub', 'Page 40').game.call('wikirace_state', {});
    expect(readStateText(again.text).links).toEqual(shown.links);
    const otherSeed = newGame('Hub', 'Page 40', 30, 8).game.call('wikirace_state', {});
    expect(readStateText(otherSeed.text).links).not.toEqual(shown.links);
  });

  test('a move to a page not offered is an error the agent sees and uses no step; a good move is one trajectory line', () => {
    const { game, trajectory } = newGame('Page 1', 'Page 40');
    const bad = game.call('wikirace_move', { page: 'Page 40' });
    expect(bad).toEqual({ ok: false, text: expect.stringMatching(/^Error: 'Page 40' is not among the links available on 'Page 1'/) });
    expect(game.steps).toBe(0);
    const links = readStateText(game.stateText()).links;
    expect(links.sort()).toEqual(['Page 2', 'Page 5', 'Page 8']);
    const moved = game.call('wikirace_move', { page: 'Page_8' });
    expect(moved.ok).toBe(true);
    expect(readStateText(moved.text)).toMatchObject({ current: 'Page 8', visited: ['Page 1', 'Page 8'] });
    const lines = parseTrajectory(readFileSync(trajectory, 'utf8'));
    expect(lines).toEqual([{ step: 1, from: 'Page 1', to: 'Page 8', offered: 3, ts: expect.any(Number) }]);
  });

  test('reaching the target ends the game; later moves are errors', () => {
    const { game, trajectory } = newGame('Page 1', 'Page 40');
    let state = game.stateText();
    while (!game.over) {
      const shown = readStateText(state);
      const best = shown.links.reduce((a, b) => (distanceTo('Page 40', b) < distanceTo('Page 40', a) ? b : a));
      state = game.call('wikirace_move', { page: best }).text;
    }
    expect(game.steps).toBe(distanceTo('Page 40', 'Page 1'));
    expect(state).toMatch(/The game is over: you reached the target 'Page 40' in 3 steps/);
    expect(game.call('wikirace_move', { page: 'Page 41' })).toMatchObject({ ok: false, text: expect.stringMatching(/^Error: the game is over/) });
    expect(parseTrajectory(readFileSync(trajectory, 'utf8')).at(-1)).toMatchObject({ step: 3, to: 'Page 40' });
  });

  test('the step budget ends the game where it stands', () => {
    const { game, trajectory } = newGame('Page 1', 'Page 79', 2);
    game.call('wikirace_move', { page: 'Page 2' });
    const last = game.call('wikirace_move', { page: 'Page 3' });
    expect(last.text).toMatch(/The game is over: all 2 steps are used; you stopped at 'Page 3' without reaching 'Page 79'/);
    expect(game.call('wikirace_move', { page: 'Page 4' }).ok).toBe(false);
    expect(parseTrajectory(readFileSync(trajectory, 'utf8'))).toHaveLength(2);
  });
});
