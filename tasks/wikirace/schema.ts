import { z } from 'zod';

/** The paper's splits by shortest-path length: easy 3-4, medium 5-6, hard 7-8. */
export const SPLITS = ['easy', 'medium', 'hard'] as const;
export type Split = (typeof SPLITS)[number];

/** Moves a game allows (paper, section 3: 30 steps). */
export const WIKIRACE_STEP_BUDGET = 30;

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
}).refine((t) => t.id.startsWith(`${t.split}/`), { message: 'the id must start with its split', path: ['id'] })
  .refine((t) => t.source !== t.target, { message: 'source and target must differ', path: ['target'] });

export type WikiraceTask = z.infer<typeof WikiraceTaskSchema>;
