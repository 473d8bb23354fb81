import type { JsonValue, StopType, ToolStep } from '../schema.js';
import type { ReasonTransform } from '../reason-transforms.js';
import type { ExtractionKind, LevelSpec } from './levels.js';
import type { ModelStep, Variant } from './config.js';

/**
 * The leg while the pipeline builds it. Stops refer to each other by stable ids until the leg is written
 * (leg-writer.ts gives them their indices), so a step may drop or insert stops without renumbering.
 */

export type ValueKind = 'number' | 'date' | 'text';

/** A link on a crawled page. */
export interface PageLink {
  text: string;
  url: string;
}

/** One crawled page as the pipeline reads it (crawl/page-reader.ts). */
export interface PageInfo {
  url: string;
  title: string;
  /** The first paragraph. */
  intro: string;
  /** What the page is, without its title ("a lakeside town on ..."): the clue's circumlocution. */
  description: string;
  infobox: { key: string; value: string; links: string[] }[];
  links: PageLink[];
  sections: { heading: string; text: string; items: string[] }[];
  /** Link hops from the seed. */
  depth: number;
  /** The page's text as fetched (the agent reads the same). */
  text: string;
}

/** A fact a route-info stop extracts. */
export interface Fact {
  /** The infobox key, the section heading, or `prose`. */
  key: string;
  /** As written on the page. */
  value: string;
  /** The stop's extracted_value. */
  extracted: JsonValue;
  valueType: ValueKind;
  /** A whole number the fact gives (a count, a year), for detours, conversions and the finish line; null when none. */
  number: number | null;
  /** A full date, ISO, when the fact is one. */
  iso: string | null;
  kind: ExtractionKind;
  section: string | null;
  /** What to extract, in words, without the page's title: the stop's extraction_target. */
  target: string;
  /** Who read it: the infobox or a section by rule, or the model from prose. */
  by: 'infobox' | 'section' | 'model';
}

export type Entity = { kind: 'location' | 'country' | 'ticker' | 'crypto'; value: string; field: string };

/** Where a template chain's inputs come from, so a clue can point to them without naming them. */
export interface ChainInputs {
  template: string;
  /** The input the chain starts from (a place, a country, a ticker, a date or a number) and the infobox field it is in. */
  entity: string;
  field: string;
  /** The page stop holding it. */
  fromId: string;
  /** What the chain's last step yields (its output_key). */
  output: string;
  /** The infobox field whose date the chain uses, or the date itself when the pipeline fixed it. */
  date?: { key: string } | { fixed: string };
  /** The second place of a two-place template: its page stop and field. */
  other?: { fromId: string; field: string };
  /** The kind of place counted (nearby_poi_count). */
  poi?: string;
}

export type StopRole =
  | { kind: 'page'; fact: Fact }
  | ({ kind: 'roadblock' } & ChainInputs)
  | { kind: 'detour' }
  | ({ kind: 'branch'; diamond: string } & ChainInputs)
  | { kind: 'merge'; diamond: string; op: 'add' | 'abs_diff' }
  | { kind: 'finish'; op: FinishOp };

export const FINISH_OPS = ['sum_mod10', 'abs_diff_mod10', 'product_mod10', 'digital_root_sum'] as const;
export type FinishOp = (typeof FINISH_OPS)[number];

export interface DraftBridge {
  type: 'link_follow' | 'search_query';
  targetUrl: string | null;
  searchQuery: string | null;
  expectedResultUrl: string | null;
}

export interface DraftStop {
  id: string;
  type: StopType;
  pageUrl: string | null;
  target: string;
  section: string | null;
  /** Null until known (a tool stop's after pre-validation and execution). */
  value: JsonValue | null;
  valueType: ValueKind;
  chain: ToolStep[];
  transform: ReasonTransform | null;
  /** A detour's source stop. */
  sourceId: string | null;
  /** The stops this one needs (written as depends_on in the DAG variant); the finish line's are the values it combines. */
  deps: string[];
  reasoning: string;
  role: StopRole;
  /** A page stop's way to the next page stop (link.ts). */
  bridge: DraftBridge | null;
}

/** How each model step ran for a leg: by the model, or its rule form. */
export type StepModes = Record<ModelStep, 'model' | 'rule'>;

export interface DraftLeg {
  seedUrl: string;
  seedTitle: string;
  level: LevelSpec;
  variant: Variant;
  theme: string;
  stops: DraftStop[];
  pagesCrawled: number;
  modes: StepModes;
}

/** A step's outcome for one leg: the value, or why the leg is dropped at this step. */
export type StepResult<T> = { ok: true; value: T } | { ok: false; reason: string };
export const kept = <T>(value: T): StepResult<T> => ({ ok: true, value });
export const dropped = <T = never>(reason: string): StepResult<T> => ({ ok: false, reason });

let counter = 0;
/** A fresh stop id (unique in the process). */
export const stopId = (prefix: string): string => `${prefix}-${(++counter).toString(36)}`;

/** A stop with the fields every kind shares filled in. */
export function draftStop(fields: Partial<DraftStop> & Pick<DraftStop, 'type' | 'role' | 'target'>): DraftStop {
  return { id: stopId(fields.type), pageUrl: null, section: null, value: null, valueType: 'number', chain: [], transform: null, sourceId: null, deps: [], reasoning: '', bridge: null, ...fields };
}
