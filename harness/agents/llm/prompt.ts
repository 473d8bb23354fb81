import type { ShownState } from '../../../tasks/wikirace/game/state-text.js';

/** The advice the paper's prompt does not give, added only with the llm agent's `options.loop_hint: true`. */
export const LOOP_HINT = 'Avoid pages you have already visited.';

/**
 * The paper's per-step prompt (section 3, figure 4): the current page, the target, the pages visited so
 * far and the links available, one call per step with no memory but this history. The answer is asked for
 * in \boxed{} (as the paper's probe prompt, appendix C) so that it can be parsed from any reply. No advice
 * on loops: how often a model loops is one of the paper's findings, so the protocol does not coach it
 * (`loopHint` adds LOOP_HINT, a named option of the agent, recorded with its config in job.json).
 */
export function stepPrompt(state: ShownState, step: number, budget: number, options: { loopHint?: boolean } = {}): string {
  return [
    'You are playing WikiRace: starting from one Wikipedia page, reach the target page by following links, one link per step.',
    '',
    `Target page: ${state.target}`,
    `Current page: ${state.current}`,
    `Step: ${step} of ${budget}`,
    `Pages visited so far: ${state.visited.join(' -> ')}`,
    '',
    'Links on the current page:',
    ...state.links.map((title, i) => `${i + 1}. ${title}`),
    '',
    `Choose the link most likely to lead to the target in few steps.${options.loopHint ? ` ${LOOP_HINT}` : ''}`,
    'Think briefly if you need to, then give the exact title of one link above inside \\boxed{}, for example \\boxed{' + (state.links[0] ?? 'Title') + '}.',
  ].join('\n');
}

/** What is said again when a reply named no available link. */
export const retryNote = (reply: string): string =>
  `\n\nYour previous answer did not name one of the links above (it ended: "${reply.slice(-200)}"). Answer with the exact title of one listed link inside \\boxed{}.`;

const normal = (s: string): string => s.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * What a reply's answer may be wrapped in, peeled one layer at a time: \text{...}, **bold**, a pair of
 * quotes, a sentence's final period. Each layer is only a guess, so the answer is first tried as it is:
 * titles such as `Arsenal F.C.` or `"Weird Al" Yankovic` end in a period or start with a quote.
 */
function readings(answer: string): string[] {
  const out = [answer.trim()];
  const peel = [
    (s: string) => s.replace(/^\\text\{(.*)\}$/s, '$1'),
    (s: string) => s.replace(/^\*\*(.*)\*\*$/s, '$1'),
    (s: string) => s.replace(/^"(.*)"$/s, '$1'),
    (s: string) => s.replace(/^'(.*)'$/s, '$1'),
    (s: string) => s.replace(/^`(.*)`$/s, '$1'),
    (s: string) => s.replace(/\.$/, ''),
    (s: string) => s.replace(/^["'*`]+|["'*`.]+$/g, ''),
  ];
  for (let i = 0; i < out.length && out.length < 32; i++) {
    for (const f of peel) {
      const next = f(out[i]!).trim();
      if (next && !out.includes(next)) out.push(next);
    }
  }
  return out;
}

/**
 * The link a reply chooses: the last \boxed{...} (its title, or its number in the list), else a listed title
 * on the reply's last non-empty line; undefined when the reply names none.
 */
export function parseChoice(reply: string, links: readonly string[]): string | undefined {
  const byName = (candidate: string): string | undefined => {
    const tried = readings(candidate);
    for (const c of tried) {
      const exact = links.find((l) => normal(l) === normal(c));
      if (exact) return exact;
    }
    const number = tried.find((c) => /^\d+$/.test(c));
    const n = number === undefined ? NaN : Number(number);
    return n >= 1 && n <= links.length ? links[n - 1] : undefined;
  };
  const boxed = [...reply.matchAll(/\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}/g)].map((m) => m[1]!);
  if (boxed.length) return byName(boxed.at(-1)!);
  const last = reply.trim().split('\n').filter((l) => l.trim()).at(-1);
  return last === undefined ? undefined : byName(last);
}
