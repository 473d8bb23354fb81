import type { z } from 'zod';
import type { ProviderName } from '../providers/index.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';

export type { ProviderName };

/** The AAR tools' groups, in the order AAR's instruction lists them. */
export const TOOL_GROUPS = ['web', 'maps', 'weather', 'code', 'countries', 'finance'] as const;
/** `game`: tools over a trial's own state on the host (LLM-WikiRace), offered only by the family that owns them. */
export type ToolGroup = (typeof TOOL_GROUPS)[number] | 'game';


/**
 * Where a tool runs: on the host behind the gateway, served by a provider or by the trial's own tool session
 * (`trial-session`: state kept per trial, such as a game; see tools/session.ts); or inside the trial container.
 */
export type ToolPlacement =
  | { runsIn: 'gateway'; provider: ProviderName | 'trial-session' }
  | { runsIn: 'container'; provider?: undefined };

/**
 * One tool, written once: what agents are told about it, the zod schema that checks its arguments
 * (each field `.describe()`d; it also normalises the variants agents send), and where it runs.
 */
export type ToolSpec = ToolPlacement & {
  name: string;
  /** Other names agents use for it (the reference adapter's instruction says serper_search). */
  aliases?: readonly string[];
  group: ToolGroup;
  /** One sentence, shown in the instruction and by `tools NAME --help`. */
  summary: string;
  /** What a successful call returns, in one sentence. */
  returns: string;
  /** Makes the arguments' schema; called once, when the schema is first needed (the verifier never needs it). */
  args: () => z.ZodType<Record<string, unknown>>;
  example: Record<string, unknown>;
  /**
   * The tool's answer in the synthetic golden world (tasks/aar/world/synthesize.ts) to a call of a leg's
   * golden chain whose step yields `value` under `outputKey` (a tool read two ways, as maps_search_places's
   * count or first rating); absent: the tool is not synthesised.
   */
  synthetic?: (args: Record<string, unknown>, value: unknown, outputKey?: string | null) => string;
  /**
   * Runs the call (arguments already checked) over its provider's transport and formats the answer:
   * `ctx.http` with the provider's name keeps its rate limit, `ctx.endpoints` and `ctx.keys` its address
   * and key. Every tool that names a provider has one.
   */
  run?: (args: Record<string, unknown>, ctx: ProviderContext) => Promise<ToolResult>;
};

/** One argument as documented to agents, read off the tool's schema. */
export interface ParamDoc {
  name: string;
  type: string;
  required: boolean;
  doc: string;
}

/** A tool with its arguments' schema and their documentation derived from it. */
export type ToolDefinition = Omit<ToolSpec, 'args'> & { readonly args: z.ZodType<Record<string, unknown>>; readonly params: readonly ParamDoc[] };

/** What the in-container `tools` command knows of a tool: the definition without the schema (the bundle has no zod). */
export interface ToolHelp {
  name: string;
  aliases: readonly string[];
  group: ToolGroup;
  summary: string;
  returns: string;
  params: readonly ParamDoc[];
  example: Record<string, unknown>;
  runsIn: 'gateway' | 'container';
}
