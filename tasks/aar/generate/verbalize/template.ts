import type { FinishOp } from '../draft.js';
import type { ClueStop, ClueView } from './clues.js';

/**
 * The template verbalizer: the riddle written from a clue view with no model, one numbered clue per stop,
 * openings varied by clue number, and the finish line's formula stated over clue numbers, never values.
 */

const START = ['Begin on the page you are handed.', 'Your starting line is the page you are given.', 'Open the page you were given first.'];
const LINK = ['From the page of clue {from}, follow the link to {place}.', 'Leave the page of clue {from} by its link to {place}.', 'A link on the page of clue {from} leads to {place}; go there.'];
const SEARCH = ['Search the web for {place}, and open its page.', 'No link leads on: look up {place} and open its page.'];
const ASK = ['Find {ask}.', 'What does it say is {ask}?', 'Note {ask}.'];

const pick = (options: string[], n: number): string => options[n % options.length]!;
const fill = (text: string, values: Record<string, string | number>): string => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

/** The finish formula over clue numbers, in the symbols the reader evaluates (`%`, abs, digital_root). */
export function formulaSymbols(op: FinishOp, clues: readonly number[]): string {
  const c = clues.map((n) => `clue ${n}`);
  switch (op) {
    case 'sum_mod10': return `(${c.join(' + ')}) % 10`;
    case 'abs_diff_mod10': return `abs(${c[0]} - ${c[1]}) % 10`;
    case 'product_mod10': return `(${c[0]} * ${c[1]}) % 10`;
    case 'digital_root_sum': return `digital_root(${c.join(' + ')})`;
  }
}

export function formulaWords(op: FinishOp, clues: readonly number[]): string {
  const list = clues.length > 1 ? `${clues.slice(0, -1).join(', ')} and ${clues.at(-1)}` : String(clues[0]);
  switch (op) {
    case 'sum_mod10': return `add the answers to clues ${list} and keep the last digit of the total (modulo 10)`;
    case 'abs_diff_mod10': return `take the absolute difference between the answers to clues ${clues[0]} and ${clues[1]}, modulo 10`;
    case 'product_mod10': return `multiply the answers to clues ${clues[0]} and ${clues[1]} and keep the last digit (modulo 10)`;
    case 'digital_root_sum': return `add the answers to clues ${list} and take the digital root of the total (sum its digits until one digit remains)`;
  }
}

function clueText(s: ClueStop): string {
  switch (s.kind) {
    case 'page': {
      const go = s.via === 'start' ? pick(START, s.n) : fill(pick(s.via === 'link' ? LINK : SEARCH, s.n), { from: s.from ?? 1, place: s.place });
      return `${go} ${fill(pick(ASK, s.n + 1), { ask: s.ask })}`;
    }
    case 'lookup':
      return s.ask;
    case 'detour':
      return `Take your answer to clue ${s.of} and work out ${s.transform}.`;
    case 'merge':
      return s.op === 'add' ? `Add your answers to clues ${s.a} and ${s.b} (whole-number parts).` : `Take the absolute difference between your answers to clues ${s.a} and ${s.b} (whole-number parts).`;
    case 'finish':
      return `Finally, compute the code: ${formulaWords(s.op, s.clues)}, using the whole-number part of each answer. In symbols: ${formulaSymbols(s.op, s.clues)}. The result is a single digit from 0 to 9.`;
  }
}

export function templateRiddle(view: ClueView): string {
  return view.stops.map((s) => `${s.n}. ${clueText(s)}`).join('\n\n');
}
