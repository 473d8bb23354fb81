import { pyFloat, pyFormatFixed, pyIntOfFloat } from '../../../pycompat/index.js';
import { lenientArgsMatch, referenceArgsMatch } from './args-match.js';
import type { GoldenStep, LegView } from './leg-view.js';
import { toolLogCalls, type LoggedCall, type ToolLogSource } from './tool-log.js';

/**
 * The texts whose presence shows a golden value (the reference's check): `str(value).strip()`, and where it
 * reads as a float with an integral part, str(int(x)), x:.1f and x:.2f. None for an empty value.
 */
export function valuePatterns(expected: string): string[] {
  if (!expected) return [];
  const num = pyFloat(expected.split(',').join(''));
  const asInt = num === null ? null : pyIntOfFloat(num);
  return asInt === null ? [expected] : [expected, asInt, pyFormatFixed(num!, 1), pyFormatFixed(num!, 2)];
}

/**
 * Finds golden values in previews joined with a space (the reference joins them all into one string), fed
 * one preview at a time: the end of the text so far that a value could still start in is kept, so a value
 * across two previews is found too, and the joined text is never built.
 */
export class ValueFinder {
  readonly found: boolean[];
  private readonly patterns: string[][];
  private readonly keep: number;
  private tail = '';
  private first = true;

  constructor(values: readonly string[]) {
    this.patterns = values.map(valuePatterns);
    this.found = values.map(() => false);
    this.keep = Math.max(0, ...this.patterns.flat().map((p) => p.length - 1));
  }

  add(preview: string): void {
    const text = this.tail + (this.first ? '' : ' ') + preview;
    this.first = false;
    this.patterns.forEach((patterns, i) => {
      if (!this.found[i] && patterns.some((p) => text.includes(p))) this.found[i] = true;
    });
    this.tail = this.keep ? text.slice(-this.keep) : '';
  }
}

/** An RCR chain step: the paper's matching rule (python_execute_code, and steps with no comparable key, match by name). */
export function rcrStepMatches(step: GoldenStep, call: LoggedCall): boolean {
  return call.canonicalName !== undefined && call.canonicalName === step.canonicalName && (step.canonicalName === 'python_execute_code' || lenientArgsMatch(step, call.args));
}

/**
 * Everything scoring needs from a tool log, folded call by call in log order, so that a log of any length
 * is scored in memory bounded by the leg. Refused calls count as calls and nothing else; value matching
 * reads only served outputs (LoggedCall.servedOutput).
 */
export class CallTally {
  /** Calls read, those whose `success` is true, and lines skipped. */
  calls = 0;
  valid = 0;
  skippedLines = 0;
  /** Golden steps matched, greedily in log order (the reference rule). */
  rightCalls = 0;
  readonly referencePagesFetched = new Set<string>();
  readonly expectedToolsCalled = new Set<string>();
  readonly canonicalPagesVisited = new Set<string>();
  readonly values: ValueFinder;
  private readonly goldenMatched: boolean[];
  /** Per tool stop chain, per step: a call matched it by the RCR rule. */
  private readonly chainStepsDone: boolean[][];

  constructor(private readonly view: LegView) {
    this.values = new ValueFinder(view.expectedValues);
    this.goldenMatched = view.goldenSteps.map(() => false);
    this.chainStepsDone = view.toolStopChains.map((chain) => chain.map(() => false));
  }

  /** One line of the log: its call, or undefined for a line that was skipped. */
  add(call: LoggedCall | undefined): void {
    if (!call) {
      this.skippedLines++;
      return;
    }
    this.calls++;
    if (call.success) this.valid++;
    if (call.servedOutput) this.values.add(call.preview);
    if (call.refused) return;
    const { view } = this;
    if (call.referenceUrl !== undefined && view.referencePages.has(call.referenceUrl)) this.referencePagesFetched.add(call.referenceUrl);
    if (typeof call.tool === 'string' && view.expectedTools.has(call.tool)) this.expectedToolsCalled.add(call.tool);
    for (const page of call.pages) if (view.canonicalPages.has(page)) this.canonicalPagesVisited.add(page);
    for (let gi = 0; gi < view.goldenSteps.length; gi++) {
      const step = view.goldenSteps[gi];
      if (this.goldenMatched[gi] || step.toolName !== call.tool) continue;
      if (referenceArgsMatch(step, call.args)) {
        this.goldenMatched[gi] = true;
        this.rightCalls++;
        break;
      }
    }
    view.toolStopChains.forEach((chain, c) =>
      chain.forEach((step, s) => {
        if (!this.chainStepsDone[c][s] && rcrStepMatches(step, call)) this.chainStepsDone[c][s] = true;
      }),
    );
  }

  get valuesFound(): number {
    return this.values.found.filter(Boolean).length;
  }

  /** Per tool stop (LegView.toolStopChains' order): every step of its chain has a matching call. */
  get toolStopsCompleted(): boolean[] {
    return this.chainStepsDone.map((steps) => steps.every(Boolean));
  }

  /** Tool stops whose every chain step has a matching call. */
  get completedToolStops(): number {
    return this.toolStopsCompleted.filter(Boolean).length;
  }
}

/** Folds a whole tool log (text, file or none) for a leg. */
export function tallyToolLog(view: LegView, source: ToolLogSource): CallTally {
  const tally = new CallTally(view);
  for (const call of toolLogCalls(source)) tally.add(call);
  return tally;
}
