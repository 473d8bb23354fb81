import { z } from 'zod';
import { TOOLS } from '../../../../tools/catalog/index.js';
import { titleLeaks } from '../../audit/title-leaks.js';
import type { Leg } from '../../schema.js';
import { dropped, kept, type StepResult } from '../draft.js';
import type { Ledger } from '../ledger.js';
import { jsonIn, replyExcerpt, type ModelClient } from '../model/client.js';
import { dataBlock } from '../model/prompts.js';
import type { ClueView } from './clues.js';
import { alignment, numberedClues, ruleImpliedCode, ruleReadSteps, type ReadStep } from './reader.js';
import { templateRiddle } from './template.js';

/**
 * Step 8, verbalize: the clue envelope, written by the template verbalizer or a model, and its gates: one
 * numbered clue per stop, no page title of any stop (a model gets one correction), no tool name, a
 * round-trip alignment of at least `minAlignment`, and the implied code equal to y*. A riddle failing a
 * gate is written again, up to `attempts` times.
 */

export interface Verbalized {
  riddle: string;
  alignment: number;
  implied: number;
}

const VERBALIZE_SYSTEM = [
  'You write the clue envelope of a scavenger hunt through Wikipedia pages and tool lookups.',
  'Write exactly one numbered clue per stop ("1. ...", "2. ..."), clue N for stop N, in order.',
  'Never write any of the forbidden titles, never name a tool or an API, and never reveal a value.',
  'Describe each page by what it is and how it is reached; ask for each fact indirectly; frame lookups as questions about the world.',
  'Refer to earlier results only as "clue N". The last clue states the final arithmetic and ends with "In symbols: <formula>." using the formula given, then says the result is one digit.',
  'Answer with the riddle only.',
].join(' ');

const CORRECT_SYSTEM = 'You edit a scavenger-hunt riddle. Rewrite only the clues that write a forbidden title so that they describe the page indirectly instead; keep every number, clue order and everything else. Answer with the whole riddle only.';
const ROUNDTRIP_SYSTEM = 'Read this scavenger-hunt riddle and list the steps a solver takes. Answer with a JSON array only: [{"page_or_topic": "...", "what_to_find": "...", "tool_or_method": "...", "result_used_for": "..."}, ...], one object per clue.';
const IMPLIED_SYSTEM = 'You check a scavenger-hunt riddle. Apply the final clue\'s arithmetic to the values found at each clue (whole-number parts). Show your work briefly, then give the single digit alone on the last line.';

const TOOL_NAMES = TOOLS.map((t) => t.name);
const Steps = z.array(z.object({ page_or_topic: z.unknown(), what_to_find: z.unknown(), tool_or_method: z.unknown(), result_used_for: z.unknown() }).partial());

async function ask(model: ModelClient, step: 'verbalize' | 'roundtrip', system: string, user: string): Promise<string | Error> {
  try {
    return await model.ask(step, system, user);
  } catch (error) {
    return error as Error;
  }
}

/** A riddle's gates, in order; the first one failed, or its alignment and implied code. */
async function check(leg: Leg, riddle: string, view: ClueView, model: ModelClient | undefined, minAlignment: number, values: Map<number, number>): Promise<StepResult<Verbalized>> {
  const clues = numberedClues(riddle);
  if (clues.length !== leg.stops.length || clues.some((c, i) => c.n !== i + 1)) return dropped(`the riddle has ${clues.length} numbered clues for ${leg.stops.length} stops ${replyExcerpt(riddle)}`);
  const leaks = titleLeaks(leg, riddle);
  if (leaks.length) return dropped(`the riddle names ${leaks.map((l) => `"${l.title}"`).join(', ')}`);
  const tool = TOOL_NAMES.find((t) => riddle.includes(t));
  if (tool) return dropped(`the riddle names the tool ${tool}`);
  let steps: ReadStep[];
  if (model?.steps.has('roundtrip')) {
    const reply = await ask(model, 'roundtrip', ROUNDTRIP_SYSTEM, `${riddle}\n\n${dataBlock('roundtrip', { riddle })}`);
    if (reply instanceof Error) return dropped(`the round-trip request failed: ${reply.message}`);
    const parsed = Steps.safeParse(jsonIn(reply));
    if (!parsed.success) return dropped(`the round-trip reading is not a JSON array of steps ${replyExcerpt(reply)}`);
    steps = parsed.data.map((s) => ({ page_or_topic: String(s.page_or_topic ?? ''), what_to_find: String(s.what_to_find ?? ''), tool_or_method: String(s.tool_or_method ?? ''), result_used_for: String(s.result_used_for ?? '') }));
  } else steps = ruleReadSteps(riddle);
  const score = alignment(leg, steps);
  if (score < minAlignment) return dropped(`round-trip alignment ${score.toFixed(2)} is below ${minAlignment}`);
  let implied: number | undefined;
  if (model?.steps.has('roundtrip')) {
    const lines = [...values].map(([n, v]) => `Clue ${n}: ${v}`).join('\n');
    const reply = await ask(model, 'roundtrip', IMPLIED_SYSTEM, `RIDDLE:\n${riddle}\n\nVALUES FOUND:\n${lines}\n\n${dataBlock('implied', { riddle, values: Object.fromEntries(values) })}`);
    if (reply instanceof Error) return dropped(`the implied-code request failed: ${reply.message}`);
    const last = reply.trim().split('\n').at(-1) ?? '';
    const digits = (/\d/.test(last) ? last : reply).match(/\d/g);
    implied = digits ? Number(digits.at(-1)) : undefined;
    if (implied === undefined) return dropped(`the implied-code reply holds no digit ${replyExcerpt(reply)}`);
  } else implied = ruleImpliedCode(riddle, values);
  if (implied === undefined) return dropped('no code can be read from the riddle\'s last clue');
  if (implied !== leg.passcode) return dropped(`the riddle implies ${implied}, the golden code is ${leg.passcode}`);
  return kept({ riddle, alignment: score, implied });
}

export async function verbalize(leg: Leg, view: ClueView, model: ModelClient | undefined, options: { minAlignment: number; attempts: number }, ledger: Ledger): Promise<StepResult<Verbalized>> {
  const values = new Map(leg.stops.filter((s) => s.stop_type !== 'compute' && typeof s.extracted_value === 'number').map((s) => [s.index + 1, s.extracted_value as number]));
  const byModel = model?.steps.has('verbalize') === true;
  const attempts = byModel ? options.attempts : 1;
  let last = 'no attempt';
  for (let attempt = 0; attempt < attempts; attempt++) {
    let riddle: string;
    if (byModel) {
      const reply = await ask(model!, 'verbalize', VERBALIZE_SYSTEM, `Forbidden titles: ${view.forbidden.map((t) => `"${t}"`).join(', ')}.\n\n${dataBlock('verbalize', view)}`);
      if (reply instanceof Error) return dropped(`the verbalize request failed: ${reply.message}`);
      riddle = reply.trim();
      const leaks = titleLeaks(leg, riddle);
      if (leaks.length) {
        const fixed = await ask(model!, 'verbalize', CORRECT_SYSTEM, `${riddle}\n\nForbidden titles written above: ${leaks.map((l) => `"${l.matched}"`).join(', ')}\n\n${dataBlock('correct', { riddle, titles: leaks.map((l) => l.matched) })}`);
        if (!(fixed instanceof Error)) riddle = fixed.trim();
      }
    } else riddle = templateRiddle(view);
    const outcome = await check(leg, riddle, view, model, options.minAlignment, values);
    if (outcome.ok) {
      ledger.keep('verbalize', 'riddles');
      return outcome;
    }
    ledger.drop('verbalize', 'riddles', outcome.reason);
    last = outcome.reason;
  }
  return dropped(`no riddle passed its gates in ${attempts} attempt${attempts === 1 ? '' : 's'} (last: ${last})`);
}
