import { z } from 'zod';

/** The paper's splits by shortest-path length: easy 3-4, medium 5-6, hard 7-8. */
export const SPLITS = ['easy', 'medium', 'hard'] as const;
export type Split = (typeof SPLITS)[number];

/** Moves a game allows (paper, section 3: 30 steps), unless the task file sets `max_moves`. */
export const WIKIRACE_MOVE_LIMIT = 30;
/** Links a step offers at most (paper, appendix A: 50), unless the task file sets `max_links`. */
export const WIKIRACE_LINK_LIMIT = 50;
/**
 * Model calls a trial may make per allowed move (`budget.steps: auto`): a retry, an unparseable reply or a
 * framework's call that only looks at the state uses a model call but no move, so the model-call budget is
 * a multiple of the move limit and a player runs out of moves before it runs out of calls.
 */
export const WIKIRACE_MODEL_CALLS_PER_MOVE = 3;

/**
 * One LLM-WikiRace task file: a source/target pair on a graph, with its shortest-path length. `graph` is
 * the graph folder (graph.json, offsets.u32, targets.u32, titles.txt) relative to the task file, and
 * `graph_sha256` the checksum its header records, so a task never runs on another graph than it was made for.
 */
export const WikiraceTaskSchema = z.strictObject({
  family: z.literal('wikirace'),
  id: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'expected "<split>/<id>"'),
  split: z.enum(SPLITS),
  source: z.string().min(1),
  target: z.string().min(1),
  optimal_length: z.number().int().positive(),
  graph: z.string().min(1),
  graph_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
  synthetic: z.boolean(),
  /** Moves the game allows; absent: 30. */
  max_moves: z.number().int().positive().optional(),
  /** Links a step offers at most; absent: 50 (the paper's appendix A also tries 30 and 70). */
  max_links: z.number().int().positive().optional(),
}).refine((t) => t.id.startsWith(`${t.split}/`), { message: 'the id must start with its split', path: ['id'] })
  .refine((t) => t.source !== t.target, { message: 'source and target must differ', path: ['target'] });

export type WikiraceTask = z.infer<typeof WikiraceTaskSchema>;

export const moveLimitOf = (task: Pick<WikiraceTask, 'max_moves'>): number => task.max_moves ?? WIKIRACE_MOVE_LIMIT;
export const linkLimitOf = (task: Pick<WikiraceTask, 'max_links'>): number => task.max_links ?? WIKIRACE_LINK_LIMIT;
/** The model calls a game's trial may make by default: WIKIRACE_MODEL_CALLS_PER_MOVE per allowed move. */
export const modelCallBudgetOf = (task: Pick<WikiraceTask, 'max_moves'>): number => WIKIRACE_MODEL_CALLS_PER_MOVE * moveLimitOf(task);
