import { z } from 'zod';
import { text } from './args.js';
import { defineTool } from './define.js';

/** LLM-WikiRace's two tools: the game's state lives on the host, one game per trial. */
export const wikiraceState = defineTool({
  name: 'wikirace_state',
  group: 'game',
  summary: 'Show the game: the current page, the target, the pages visited so far, and the links you may follow from here.',
  returns: 'the state as text, the available links one per line',
  args: () => z.object({}),
  example: {},
  runsIn: 'gateway',
  provider: 'trial-session',
});

export const wikiraceMove = defineTool({
  name: 'wikirace_move',
  group: 'game',
  summary: 'Follow one of the available links of the current page (one step); the game ends at the target or when the steps run out.',
  returns: 'the new state, or the end of the game',
  args: () => z.object({
    page: text('page').describe('the title of the linked page, exactly as listed among the available links'),
  }),
  example: { page: 'Philosophy' },
  runsIn: 'gateway',
  provider: 'trial-session',
});

export const GAME_TOOLS = [wikiraceState, wikiraceMove] as const;
