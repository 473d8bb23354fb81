import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { taskFamily } from '../../../tasks/registry.js';
import { formatProblem } from '../../../tasks/problems.js';
import type { LoadedPair } from '../../../tasks/wikirace/load.js';
import { readStateText } from '../../../tasks/wikirace/game/state-text.js';
import { oraclePlan } from '../../../tasks/wikirace/oracle-plan.js';
import { tempDir } from '../../helpers/data.js';
import { writeTestGame, type TestGame } from '../../helpers/wikirace.js';

const family = taskFamily('wikirace');
const tmp = tempDir('aar-wikirace-family-');
let world: TestGame;
beforeAll(async () => {
  world = await writeTestGame(tmp.dir, [
    { split: 'easy', source: 'Page 1', target: 'Page 40' },
    { split: 'easy', source: 'Page 2', target: 'Page 40' },
    { split: 'medium', source: 'Page 2', target: 'Page 60' },
  ]);
});
afterAll(() => tmp.cleanup());

describe('the wikirace family', () => {
  test('loads task files with their graph; filters by split, id and seeded sample; describes variant and split', async () => {
    const { tasks, problems } = await family.load([tmp.dir]);
    expect(problems).toEqual([]);
    expect(tasks.map((t: LoadedPair) => t.id)).toEqual(['easy/pair_001', 'easy/pair_002', 'medium/pair_003']);
    expect(family.filter(tasks, { splits: ['medium'] }).map((t: LoadedPair) => t.id)).toEqual(['medium/pair_003']);
    expect(family.filter(tasks, { ids: ['easy/*'], exclude: ['*/pair_002'] }).map((t: LoadedPair) => t.id)).toEqual(['easy/pair_001']);
    const sample = family.filter(tasks, { sample: { n: 2, seed: 3 } });
    expect(sample).toHaveLength(2);
    expect(family.filter(tasks, { sample: { n: 2, seed: 3 } })).toEqual(sample);
    expect(family.describe(tasks[2])).toEqual({ id: 'medium/pair_003', variant: path.basename(tmp.dir), level: 'medium', file: world.files['medium/pair_003'] });
    // budget.steps: auto is the model-call budget, 3 per move; the move limit stays the game's 30.
    expect(family.stepBudget(tasks[0])).toBe(90);
    expect(() => family.filterSchema.parse({ splits: ['extreme'] })).toThrow();
  });

  test('the move limit is the game\'s (task max_moves, else 30), never the model-call budget; max_links caps the links offered', async () => {
    const { tasks } = await family.load([tmp.dir]);
    const pair = tasks[0] as LoadedPair;
    for (const budget of [30, 90, 500]) {
      const game = family.toolSession!(pair, { dir: tmp.dir, seed: 1, attempt: 1, stepBudget: budget });
      expect(readStateText(game.call('wikirace_state', {}).text)).toMatchObject({ moves: 0, moveLimit: 30 });
    }
    const five = { ...pair, pair: { ...pair.pair, max_moves: 5, max_links: 2 } } as LoadedPair;
    expect(family.stepBudget(five)).toBe(15);
    const game = family.toolSession!(five, { dir: tmp.dir, seed: 1, attempt: 1, stepBudget: 90 });
    const shown = readStateText(game.call('wikirace_state', {}).text);
    expect(shown).toMatchObject({ moveLimit: 5 });
    expect(shown.links.length).toBeLessThanOrEqual(2);
    expect(family.renderInstruction(five, { stepBudget: 15, attempt: 1 })).toContain('at most 5 steps. A step offers at most 2 of the page\'s links');
  });

  test('two configurations on the same pair and attempt face the same offered links, in the same order, at every page; another attempt draws anew', async () => {
    const { tasks } = await family.load([tmp.dir]);
    // From Hub, which links to all 79 other pages: 50 of them are offered, so the draw decides the set too.
    const fromHub = { ...tasks[0], pair: { ...(tasks[0] as LoadedPair).pair, source: 'Hub' } } as LoadedPair;
    const open = (trialSeed: number, attempt: number) => family.toolSession!(fromHub, { dir: tmp.dir, seed: trialSeed, attempt, stepBudget: 90 });
    // Two agents' trials: different trial ids, so different trial seeds (plan.ts), the same pair and attempt.
    const a = open(0x1234, 1);
    const b = open(0xbeef, 1);
    for (let step = 0; step < 4; step++) {
      const [sa, sb] = [a, b].map((g) => readStateText(g.call('wikirace_state', {}).text));
      expect(sa!.links).toHaveLength(step === 0 ? 50 : sa!.links.length);
      expect(sb!.links).toEqual(sa!.links);
      // The same choice both sides (the middle link), so both stay on the same page.
      const next = sa!.links[Math.floor(sa!.links.length / 2)];
      a.call('wikirace_move', { page: next });
      b.call('wikirace_move', { page: next });
    }
    const firstOf = (g: ReturnType<typeof open>) => readStateText(g.call('wikirace_state', {}).text).links;
    expect(firstOf(open(7, 1))).toEqual(firstOf(open(8, 1)));
    expect(firstOf(open(7, 2))).toEqual(firstOf(open(9, 2)));
    expect(new Set(firstOf(open(7, 2)))).not.toEqual(new Set(firstOf(open(7, 1))));
    // The instruction's start links follow the attempt alone as well.
    expect(family.renderInstruction(fromHub, { stepBudget: 90, attempt: 1 })).toContain(firstOf(open(1, 1)).map((l) => `- ${l}`).join('\n'));
  });

  test('bad task files are one-line problems naming the file and the field; good files still load', async () => {
    const bad = tempDir('aar-wikirace-bad-');
    try {
      const good = JSON.parse(readFileSync(world.files['easy/pair_001']!, 'utf8'));
      const write = (name: string, value: unknown): string => {
        const file = path.join(bad.dir, 'easy', name);
        writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
        return file;
      };
      await writeTestGame(bad.dir, [{ split: 'easy', source: 'Page 1', target: 'Page 40' }]);
      const sum = write('sum.json', { ...good, id: 'easy/sum', graph_sha256: 'b'.repeat(64) });
      const page = write('page.json', { ...good, id: 'easy/page', target: 'Nowhere' });
      const split = write('split.json', { ...good, id: 'hard/x' });
      const folder = write('folder.json', { ...good, id: 'easy/folder', graph: '../missing' });
      write('syntax.json', '{"family": "wikirace",');
      const { tasks, problems } = await family.load([bad.dir]);
      expect(tasks.map((t: LoadedPair) => t.id)).toEqual(['easy/pair_001']);
      const lines = problems.map(formatProblem);
      expect(lines).toEqual(expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${sum}: \\$\\.graph_sha256: bbbbbbbbbbbb… but the graph at .* has`)),
        `${page}: $.target: page 'Nowhere' is not in the graph at ${path.join(bad.dir, 'graph')}`,
        `${split}: $.id: the id must start with its split`,
        expect.stringMatching(new RegExp(`^${folder}: \\$\\.graph: .*graph\\.json: cannot read \\(ENOENT\\)`)),
        expect.stringMatching(/syntax\.json: invalid JSON at line 1/),
      ]));
      expect(lines.every((l) => !l.includes('\n'))).toBe(true);
    } finally {
      bad.cleanup();
    }
  });

  test('the instruction names source, target, budget and both tools; the oracle plan holds exactly the shortest-path pages', async () => {
    const { tasks } = await family.load([tmp.dir]);
    const text = family.renderInstruction(tasks[0], { stepBudget: 90 });
    expect(text).toContain('Start at **Page 1** and reach **Page 40**');
    expect(text).toContain('at most 30 steps');
    expect(text).toContain('at most 50 of the page\'s links');
    expect(text).toContain('allows 90 model calls in all');
    expect(text).toContain("tools wikirace_move '{\"page\":\"Philosophy\"}'");
    expect(text).toContain('Run `tools wikirace_state` to see the links of the source page.');
    // No advice the paper's protocol does not give (loops are one of its findings).
    expect(text).not.toMatch(/circles|already visited/);
    // With the trial's attempt, the first state's links, exactly as the game will offer them.
    const seeded = family.renderInstruction(tasks[0], { stepBudget: 30, attempt: 2 });
    const game = family.toolSession!(tasks[0], { dir: tmp.dir, seed: 5, attempt: 2, stepBudget: 90 });
    const links = readStateText(game.call('wikirace_state', {}).text).links;
    expect(seeded).toContain(`The links available on **Page 1** (${links.length}), as \`tools wikirace_state\` shows them:\n\n${links.map((l) => `- ${l}`).join('\n')}\n`);
    const pair = tasks[0] as LoadedPair;
    const plan = oraclePlan(pair.world, pair.pair);
    expect(plan['Page 1']).toBe(3);
    expect(plan['Page 40']).toBe(0);
    expect(Object.values(plan).every((d) => d >= 0 && d <= 3)).toBe(true);
    expect(() => oraclePlan(pair.world, { ...pair.pair, optimal_length: 2 })).toThrow(/optimal_length is 2 but the shortest path in the graph has 3 links/);
  });
});
