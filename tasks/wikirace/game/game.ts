import { appendFileSync, writeFileSync } from 'node:fs';
import type { ToolResult } from '../../../tools/providers/types.js';
import type { TrialToolSession } from '../../../tools/session.js';
import type { DistanceCache } from '../graph/distances.js';
import type { LinkGraph } from '../graph/graph.js';
import { offeredLinks } from '../graph/options.js';
import { trajectoryLineText } from './trajectory.js';

export interface GameSetup {
  graph: LinkGraph;
  distances: DistanceCache;
  source: string;
  target: string;
  /** Moves allowed (the game's move limit, not the trial's model-call budget). */
  stepBudget: number;
  /** Links a step offers at most; absent: OFFERED_LINKS (50). */
  linkLimit?: number;
  /** Draws the offered links and their order (with the page): gameSeed(pair, attempt). */
  seed: number;
  /** Where each accepted move is appended, one JSON line per step. */
  trajectoryPath: string;
}

const error = (text: string): ToolResult => ({ ok: false, text: `Error: ${text}` });

/** Titles as agents may spell them: underscores for spaces, outer spaces. */
const normalTitle = (title: string): string => title.replace(/_/g, ' ').trim();

/**
 * One LLM-WikiRace game, kept on the host by the gateway for one trial: the current page, the pages
 * visited, the moves left. `wikirace_state` shows it; `wikirace_move` follows one offered link. The
 * distances to the target decide which links are offered but are never shown.
 */
export class WikiraceGame implements TrialToolSession {
  private readonly sourcePage: number;
  private readonly targetPage: number;
  private current: number;
  private readonly path: number[];
  private ended: 'target' | 'budget' | null = null;

  constructor(private readonly setup: GameSetup) {
    const page = (title: string): number => {
      const found = setup.graph.pageOf(title);
      if (found === undefined) throw new Error(`wikirace: page '${title}' is not in the graph`);
      return found;
    };
    this.sourcePage = page(setup.source);
    this.targetPage = page(setup.target);
    this.current = this.sourcePage;
    this.path = [this.sourcePage];
    // Present from the start, so a trial folder shows a game with no move as an empty trajectory.
    writeFileSync(setup.trajectoryPath, '');
  }

  get steps(): number {
    return this.path.length - 1;
  }

  get over(): boolean {
    return this.ended !== null;
  }

  call(tool: string, args: Record<string, unknown>): ToolResult {
    if (tool === 'wikirace_state') return { ok: true, text: this.stateText() };
    if (tool === 'wikirace_move') return this.move(String(args.page));
    return error(`the game has no tool '${tool}'`);
  }

  /** The links offered on the current page, as titles, in their seeded order. */
  offered(): string[] {
    const { graph, distances, seed, linkLimit } = this.setup;
    return offeredLinks(graph, distances.to(this.targetPage), this.current, seed, linkLimit).map((p) => graph.titles[p]!);
  }

  move(title: string): ToolResult {
    const { graph, stepBudget } = this.setup;
    if (this.ended) return error(`the game is over: ${this.endText()}`);
    const offered = this.offered();
    const wanted = normalTitle(title);
    const chosen = offered.find((t) => t === title) ?? offered.find((t) => normalTitle(t) === wanted);
    if (chosen === undefined) {
      return error(`'${title}' is not among the links available on '${graph.titles[this.current]}'; call wikirace_state to see them (no step was used)`);
    }
    const from = graph.titles[this.current]!;
    this.current = graph.pageOf(chosen)!;
    this.path.push(this.current);
    appendFileSync(this.setup.trajectoryPath, trajectoryLineText({ step: this.steps, from, to: chosen, offered: offered.length, ts: Date.now() / 1000 }));
    if (this.current === this.targetPage) this.ended = 'target';
    else if (this.steps >= stepBudget) this.ended = 'budget';
    return { ok: true, text: `Moved to '${chosen}'.\n\n${this.stateText()}` };
  }

  private endText(): string {
    const { graph, stepBudget } = this.setup;
    if (this.ended === 'target') return `you reached the target '${graph.titles[this.targetPage]}' in ${this.steps} steps`;
    return `all ${stepBudget} steps are used; you stopped at '${graph.titles[this.current]}' without reaching '${graph.titles[this.targetPage]}'`;
  }

  stateText(): string {
    const { graph, stepBudget } = this.setup;
    const lines = [
      `Target page: ${graph.titles[this.targetPage]}`,
      `Current page: ${graph.titles[this.current]}`,
      `Steps used: ${this.steps} of ${stepBudget}`,
      `Visited so far: ${this.path.map((p) => graph.titles[p]).join(' -> ')}`,
    ];
    if (this.ended) return [...lines, '', `The game is over: ${this.endText()}.`].join('\n');
    const offered = this.offered();
    if (!offered.length) return [...lines, '', 'This page has no outgoing links: the game cannot go on.'].join('\n');
    return [...lines, '', `Available links (${offered.length}):`, ...offered].join('\n');
  }
}
