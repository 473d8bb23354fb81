import { createHash } from 'node:crypto';
import type { JsonValue, Leg, Stop } from '../schema.js';
import type { DraftLeg, DraftStop } from './draft.js';
import { finishCode, finishExpression } from './steps/execute.js';
import { reasonCode } from './steps/reason-code.js';

/**
 * A finished draft as a leg in the released JSON format (tasks/aar/schema.ts): stops get their indices in
 * order, references between them become indices, the DAG variant writes every stop's depends_on, and the
 * leg carries its provenance (how, from what and when it was made).
 */

export const PIPELINE_VERSION = 'aar-harness-generate/1';

export interface Provenance {
  pipeline: string;
  seed_url: string;
  level: string;
  variant: string;
  /** The model and which steps asked it (`rule`: the step's form without a model). */
  model: string | null;
  steps: DraftLeg['modes'];
  generated_at: string;
  tools: { mode: string; store: string | null; world: string | null };
  run_seed: number;
  attempt: number;
  roundtrip_alignment: number;
  implied_code: number;
}

const EXTRACTION_ORDER = ['infobox', 'prose', 'cross_section'];

export function writeLeg(draft: DraftLeg, riddle: string, sampleId: string, provenance: Provenance): Leg {
  const index = new Map(draft.stops.map((s, i) => [s.id, i]));
  const idx = (id: string): number => index.get(id)!;
  const dag = draft.variant === 'dag';
  const values = new Map(draft.stops.map((s) => [s.id, s.value as number]));
  const stops: Stop[] = draft.stops.map((s, i) => stopJson(s, i, idx, (id) => values.get(id)!, dag));
  const kinds = draft.stops.flatMap((s) => (s.role.kind === 'page' ? [s.role.fact.kind] : []));
  const hardest = kinds.reduce((a, k) => (EXTRACTION_ORDER.indexOf(k) > EXTRACTION_ORDER.indexOf(a) ? k : a), 'infobox');
  const passcode = draft.stops.at(-1)!.value as number;
  const body = { seed_url: draft.seedUrl, stops, riddle };
  return {
    trail_id: `trail_${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 8)}`,
    seed_url: draft.seedUrl,
    seed_title: draft.seedTitle,
    stops,
    passcode,
    difficulty: {
      level: draft.level.name as Leg['difficulty']['level'],
      depth: stops.length,
      tool_stop_count: stops.filter((s) => s.stop_type === 'tool').length,
      reason_stop_count: stops.filter((s) => s.stop_type === 'reason').length,
      extraction_difficulty: hardest,
      bridge_obscurity: draft.stops.some((s) => s.bridge?.type === 'search_query') ? 'search' : 'direct_link',
    },
    riddle,
    metadata: { theme: draft.theme, difficulty: draft.level.name, sample_id: sampleId, pages_crawled: draft.pagesCrawled, source: PIPELINE_VERSION },
    generated_at: provenance.generated_at,
    provenance,
  } as Leg;
}

function stopJson(s: DraftStop, i: number, idx: (id: string) => number, valueOf: (id: string) => number, dag: boolean): Stop {
  const finish = s.role.kind === 'finish' ? s.role.op : null;
  const refs = s.type === 'compute' ? s.deps.map(idx) : [];
  const expression = finish ? finishExpression(finish, s.deps.map(valueOf)) : null;
  const bridgeType = s.type === 'page' ? (s.bridge?.type ?? 'link_follow') : s.type === 'tool' ? 'tool_call' : 'compute';
  return {
    index: i,
    stop_type: s.type,
    page_url: s.pageUrl,
    extraction_target: s.target,
    extraction_section: s.section,
    extracted_value: s.value as JsonValue,
    extracted_value_type: s.valueType,
    bridge: {
      bridge_type: bridgeType,
      target_url: s.bridge?.targetUrl ?? null,
      search_query: s.bridge?.searchQuery ?? null,
      expected_result_url: s.bridge?.expectedResultUrl ?? null,
      tool_chain: s.chain,
      expression,
      expression_code: finish && expression ? finishCode(finish, expression) : null,
      referenced_stops: refs,
    },
    reasoning: s.reasoning,
    reason_transform: s.transform,
    reason_source_stop: s.sourceId === null ? null : idx(s.sourceId),
    reason_code: s.transform ? reasonCode(s.transform, valueOf(s.sourceId!)) : null,
    ...(dag ? { depends_on: s.deps.map(idx) } : {}),
  };
}
