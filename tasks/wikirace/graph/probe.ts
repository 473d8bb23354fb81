import { mixSeeds, seededRandom, shuffleInPlace } from '../../../common/random.js';
import { distancesTo } from './distances.js';
import type { LinkGraph } from './graph.js';

/**
 * The paper's world-knowledge probe (appendix C): does the model know whether page A links to page B?
 * Connected pairs are direct links; unconnected ones are pages 2, 3 or 4 links away, and "reversed"
 * pairs, where B links to A but not A to B (the hard case).
 */
export const PROBE_CLASSES = ['connected', 'distance-2', 'distance-3', 'distance-4', 'reversed'] as const;
export type ProbeClass = (typeof PROBE_CLASSES)[number];

export interface ProbePair {
  source: number;
  target: number;
  kind: ProbeClass;
  connected: boolean;
}

/**
 * A seeded set as the paper's (appendix C): `perClass` pairs of each class, so linked to not linked is
 * 1:4 (the paper: 200 each, 1,000 questions). Sources are drawn without replacement and each gives at most
 * one pair per class, never the same pair twice (a reversed pair's target may also lie 2 to 4 links away),
 * so no question is asked twice.
 */
export function probePairs(graph: LinkGraph, perClass: number, seed: number, maxSources = 50_000): ProbePair[] {
  const random = seededRandom(mixSeeds(seed, 0xc0ffee));
  const wanted = new Map<ProbeClass, number>(PROBE_CLASSES.map((k) => [k, perClass]));
  const found = new Map<ProbeClass, ProbePair[]>(PROBE_CLASSES.map((k) => [k, []]));
  const back = graph.reversed();
  const pick = <T>(list: ArrayLike<T>): T => list[Math.floor(random() * list.length)]!;
  const full = (kind: ProbeClass): boolean => found.get(kind)!.length >= wanted.get(kind)!;
  // A partial Fisher-Yates shuffle of the pages: the next source is a page not drawn before.
  const unseen = Uint32Array.from({ length: graph.pageCount }, (_, i) => i);
  const limit = Math.min(maxSources, graph.pageCount);
  let sources = 0;
  for (; PROBE_CLASSES.some((k) => !full(k)) && sources < limit && graph.pageCount > 1; sources++) {
    const j = sources + Math.floor(random() * (graph.pageCount - sources));
    const source = unseen[j]!;
    unseen[j] = unseen[sources]!;
    unseen[sources] = source;
    const links = graph.linksOf(source);
    const taken = new Set<number>();
    const add = (kind: ProbeClass, target: number): void => {
      taken.add(target);
      found.get(kind)!.push({ source, target, kind, connected: kind === 'connected' });
    };
    if (!full('connected') && links.length > 0) add('connected', pick(links));
    if (!full('reversed')) {
      const backOnly = Array.from(back.linksOf(source)).filter((p) => !graph.hasLink(source, p));
      if (backOnly.length > 0) add('reversed', pick(backOnly));
    }
    if ((['distance-2', 'distance-3', 'distance-4'] as const).every(full)) continue;
    const from = distancesTo(graph, source, back);
    for (const kind of ['distance-2', 'distance-3', 'distance-4'] as const) {
      if (full(kind)) continue;
      const d = Number(kind.slice(-1));
      const at: number[] = [];
      for (let p = 0; p < from.length; p++) if (from[p] === d && !taken.has(p)) at.push(p);
      if (at.length > 0) add(kind, pick(at));
    }
  }
  const short = PROBE_CLASSES.find((k) => !full(k));
  if (short) throw new Error(`probe: found ${found.get(short)!.length} of ${wanted.get(short)} ${short} pairs from ${sources} random sources${sources === graph.pageCount ? ' (every page)' : ''}`);
  return shuffleInPlace(PROBE_CLASSES.flatMap((k) => found.get(k)!), random);
}

/** The question for one pair (after the paper's figure 9): a yes/no answer in \boxed{}. */
export function probePrompt(source: string, target: string): string {
  return [
    'You are an expert on Wikipedia and its hyperlink structure.',
    `Source page: "${source}"`,
    `Target page: "${target}"`,
    'Does the Wikipedia article of the source page contain a direct hyperlink to the article of the target page?',
    'Think briefly if you need to, then give your final answer as \\boxed{yes} or \\boxed{no}.',
  ].join('\n');
}

/** The answer of a reply: the last \boxed{yes|no}; undefined when there is none (the sample is then left out, as in the paper). */
export function parseProbeAnswer(reply: string): boolean | undefined {
  const boxed = [...reply.matchAll(/\\boxed\{\s*(?:\\text\{\s*)?(yes|no)\b[^}]*\}/gi)];
  const last = boxed.at(-1);
  return last ? last[1]!.toLowerCase() === 'yes' : undefined;
}

/** Precision, recall and F1 with linked as the positive class; null when undefined. */
export interface PrecisionRecall {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export interface ProbeScore {
  asked: number;
  /** Replies with no \boxed{yes|no}: left out of the figures. */
  unparsed: number;
  /** Requests that failed (no reply after the gateway's attempts): left out of the figures. */
  failed: number;
  truePositive: number;
  falsePositive: number;
  trueNegative: number;
  falseNegative: number;
  /** Connected is the positive class; null when undefined (nothing predicted / nothing to find). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** Share answered right per class (null when none of the class parsed). */
  accuracyByClass: Record<ProbeClass, number | null>;
  /** Linked against each class of not linked alone (the linked pairs with that class's): how well each is told apart. */
  versusClass: Record<Exclude<ProbeClass, 'connected'>, PrecisionRecall>;
}

function precisionRecall(tp: number, fp: number, fn: number): PrecisionRecall {
  const precision = tp + fp > 0 ? tp / (tp + fp) : null;
  const recall = tp + fn > 0 ? tp / (tp + fn) : null;
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : precision === 0 || recall === 0 ? 0 : null;
  return { precision, recall, f1 };
}

export function scoreProbe(answers: readonly { pair: ProbePair; answer: boolean | undefined; failed?: boolean }[]): ProbeScore {
  let tp = 0, fp = 0, tn = 0, fn = 0, unparsed = 0, failed = 0;
  const right = new Map<ProbeClass, [number, number]>(PROBE_CLASSES.map((k) => [k, [0, 0]]));
  const saidYes = new Map<ProbeClass, number>(PROBE_CLASSES.map((k) => [k, 0]));
  for (const { pair, answer, failed: lost } of answers) {
    if (lost) {
      failed++;
      continue;
    }
    if (answer === undefined) {
      unparsed++;
      continue;
    }
    if (answer) saidYes.set(pair.kind, saidYes.get(pair.kind)! + 1);
    if (answer && pair.connected) tp++;
    else if (answer) fp++;
    else if (pair.connected) fn++;
    else tn++;
    const tally = right.get(pair.kind)!;
    tally[1]++;
    if (answer === pair.connected) tally[0]++;
  }
  const accuracyByClass = Object.fromEntries(PROBE_CLASSES.map((k) => [k, right.get(k)![1] > 0 ? right.get(k)![0] / right.get(k)![1] : null])) as Record<ProbeClass, number | null>;
  const versusClass = Object.fromEntries(
    PROBE_CLASSES.slice(1).map((k) => [k, precisionRecall(tp, saidYes.get(k)!, fn)]),
  ) as Record<Exclude<ProbeClass, 'connected'>, PrecisionRecall>;
  return { asked: answers.length, unparsed, failed, truePositive: tp, falsePositive: fp, trueNegative: tn, falseNegative: fn, ...precisionRecall(tp, fp, fn), accuracyByClass, versusClass };
}
