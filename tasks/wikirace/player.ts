/**
 * The built-in WikiRace players, run inside the trial container (bundled into one file) and playing
 * through the `tools` command like any agent:
 *
 *   node wikirace-player.cjs oracle PLAN.json   follows a shortest path: PLAN.json maps each page on some
 *                                               shortest path to its distance to the target
 *   node wikirace-player.cjs random SEED        a uniform choice among the offered links, seeded
 *
 * Each prints `<name>: <n> tool calls` as its last word. The trial runner may load the bundle into its own
 * process instead (container/program.ts).
 */
import { readFileSync } from 'node:fs';
import { seededRandom } from '../../common/random.js';
import { readStateText } from './game/state-text.js';
import { toolsSession } from '../../container/batch-session.js';
import { startUnlessLoaded } from '../../container/program.js';

type Chooser = (links: string[], current: string) => string | undefined;

async function play(name: string, choose: Chooser): Promise<void> {
  const tools = toolsSession();
  let calls = 1;
  let state = await tools.call('wikirace_state');
  for (;;) {
    const shown = readStateText(state.text);
    if (!state.ok || shown.over || !shown.links.length || !shown.current) break;
    const next = choose(shown.links, shown.current);
    if (next === undefined) {
      console.log(`${name}: no link to choose on '${shown.current}'`);
      break;
    }
    console.log(`${name}: ${shown.current} -> ${next}`);
    calls++;
    state = await tools.call('wikirace_move', { page: next });
  }
  console.log(state.text.split('\n').find((l) => l.startsWith('The game is over')) ?? state.text.split('\n')[0]);
  tools.close();
  console.log(`${name}: ${calls} tool calls`);
}

function oracle(planFile: string): Chooser {
  const distance = new Map(Object.entries(JSON.parse(readFileSync(planFile, 'utf8')) as Record<string, number>));
  return (links, current) => {
    const here = distance.get(current);
    return here === undefined ? undefined : links.find((l) => distance.get(l) === here - 1);
  };
}

function random(seed: number): Chooser {
  const draw = seededRandom(seed);
  return (links) => links[Math.floor(draw() * links.length)];
}

export async function main([mode, arg]: string[]): Promise<number> {
  const chooser = mode === 'oracle' ? oracle(arg!) : mode === 'random' ? random(Number(arg)) : undefined;
  if (!chooser) {
    console.error('usage: wikirace-player oracle PLAN.json | random SEED');
    return 2;
  }
  try {
    await play(mode!, chooser);
    return 0;
  } catch (error) {
    console.error(`${mode}: ${(error as Error).message}`);
    return 1;
  }
}

startUnlessLoaded(main);
