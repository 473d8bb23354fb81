import { z } from 'zod';

/**
 * The AAR leg format, as released in the-amazing-agent-race/data/<variant>/<level>/sample_NNN.json.
 * Objects are loose: unknown extra keys are kept, so newer data still loads.
 */

export const STOP_TYPES = ['page', 'tool', 'reason', 'compute'] as const;
export const LEVELS = ['easy', 'medium', 'hard', 'extreme'] as const;

export { REASON_TRANSFORMS, type ReasonTransform } from './reason-transforms.js';

const int = z.number().int();
const nullableString = z.string().nullable();

/** Any JSON value (the extracted values of stops are strings, numbers, and rarely lists or objects). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** Values come from JSON.parse, so they are JSON by construction; checking them again would only cost time. */
export const JsonValueSchema = z.custom<JsonValue>((value) => value !== undefined, { message: 'expected a JSON value' });

export const ToolStepSchema = z.looseObject({
  tool_name: z.string(),
  /** Golden arguments. Keys starting with "__" are pipeline wiring (e.g. __from_previous), not agent arguments. */
  arguments: z.record(z.string(), JsonValueSchema),
  expected_output: JsonValueSchema.nullable().optional(),
  output_key: nullableString.optional(),
});

export const BridgeSchema = z.looseObject({
  bridge_type: z.string(),
  target_url: nullableString,
  search_query: nullableString,
  expected_result_url: nullableString,
  tool_chain: z.array(ToolStepSchema),
  expression: nullableString,
  expression_code: nullableString,
  referenced_stops: z.array(int),
});

export const StopSchema = z.looseObject({
  index: int,
  stop_type: z.enum(STOP_TYPES),
  page_url: nullableString,
  extraction_target: z.string(),
  extraction_section: nullableString,
  extracted_value: JsonValueSchema,
  extracted_value_type: z.string(),
  bridge: BridgeSchema,
  reasoning: z.string(),
  reason_transform: nullableString,
  reason_source_stop: int.nullable(),
  reason_code: nullableString,
  /** Present in the DAG variant only; in the linear variant each stop depends on the one before. */
  depends_on: z.array(int).optional(),
});

export const DifficultySchema = z.looseObject({
  level: z.enum(LEVELS),
  depth: int,
  tool_stop_count: int,
  reason_stop_count: int,
  extraction_difficulty: z.string(),
  bridge_obscurity: z.string(),
});

export const LegMetadataSchema = z.looseObject({
  theme: z.string(),
  difficulty: z.string(),
  sample_id: z.string(),
  pages_crawled: int,
  source: z.string().optional(),
  reverbalized: z.boolean().optional(),
});

export const LegSchema = z.looseObject({
  trail_id: z.string(),
  seed_url: z.string(),
  seed_title: z.string(),
  stops: z.array(StopSchema).min(1),
  passcode: int.min(0).max(9),
  difficulty: DifficultySchema,
  riddle: z.string(),
  metadata: LegMetadataSchema,
  generated_at: z.string(),
});

export type StopType = (typeof STOP_TYPES)[number];
export type Level = (typeof LEVELS)[number];
export type ToolStep = z.infer<typeof ToolStepSchema>;
export type Bridge = z.infer<typeof BridgeSchema>;
export type Stop = z.infer<typeof StopSchema>;
export type Leg = z.infer<typeof LegSchema>;

/** The step budget of the AAR protocol: B = max(10, floor(1.5 K)), K = number of stops. */
export function stepBudget(leg: Pick<Leg, 'stops'>): number {
  return Math.max(10, Math.floor(1.5 * leg.stops.length));
}

/** The stops a stop depends on: explicit in the DAG variant, the previous stop in the linear variant. */
export function dependenciesOf(leg: Leg, stop: Stop): number[] {
  if (stop.depends_on) return stop.depends_on;
  const position = leg.stops.indexOf(stop);
  return position > 0 ? [leg.stops[position - 1].index] : [];
}
