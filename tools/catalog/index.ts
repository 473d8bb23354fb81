import { pythonExecuteCode, pythonGenerateCode } from './code.js';
import { countriesArea, countriesPopulation } from './countries.js';
import { cryptoHistoricalPrice, cryptoVolume, stockHistoricalPrice, stockVolume } from './finance.js';
import { GAME_TOOLS } from './game.js';
import { mapsDirections, mapsDistanceMatrix, mapsElevation, mapsGeocode, mapsPlaceDetails, mapsReverseGeocode, mapsSearchPlaces } from './maps.js';
import type { ToolDefinition } from './types.js';
import { BUILT_IN, Registry } from '../../common/registry.js';
import { weatherForecast, weatherHistorical } from './weather.js';
import { fetchWebpage, webSearch } from './web.js';

export * from './types.js';
import { toolHelp } from './define.js';
export { toolHelp };

/** The 19 AAR tools (paper, section 3.4 and appendix D), in the paper's order. */
export const TOOLS: readonly ToolDefinition[] = [
  fetchWebpage,
  webSearch,
  mapsGeocode,
  mapsReverseGeocode,
  mapsSearchPlaces,
  mapsPlaceDetails,
  mapsDistanceMatrix,
  mapsElevation,
  mapsDirections,
  weatherHistorical,
  weatherForecast,
  pythonExecuteCode,
  pythonGenerateCode,
  countriesPopulation,
  countriesArea,
  stockHistoricalPrice,
  stockVolume,
  cryptoHistoricalPrice,
  cryptoVolume,
];

export { GAME_TOOLS };

/** Every tool by name (live): AAR's 19, the game tools over a trial's own state (LLM-WikiRace), then a plugin's. */
export const TOOL_REGISTRY = new Registry<ToolDefinition>('tool', (t) => t.name);

/** Every tool of every family, in registration order (live). */
export const ALL_TOOLS: readonly ToolDefinition[] = TOOL_REGISTRY.entries;

/** Other names agents use for the tools, to the tool's name (live). */
export const TOOL_ALIASES: Record<string, string> = {};

/** Every tool under its name and its aliases (an alias wins over a tool of the same name, as in TOOL_ALIASES). */
const byNameOrAlias = new Map<string, ToolDefinition>();

/** Why a tool cannot be registered (its name or an alias is another tool's), or undefined. */
export function toolClash(tool: Pick<ToolDefinition, 'name' | 'aliases'>): string | undefined {
  const taken = [tool.name, ...(tool.aliases ?? [])].find((n) => byNameOrAlias.has(n));
  return taken && `tool '${tool.name}': the name '${taken}' is another tool's`;
}

/** Registers a tool (a plugin's): its name and aliases must be new. */
export function addTool(tool: ToolDefinition, from: string = BUILT_IN): void {
  const clash = toolClash(tool);
  if (clash) throw new Error(`${clash} (${from})`);
  TOOL_REGISTRY.add(tool, from);
  byNameOrAlias.set(tool.name, tool);
  for (const alias of tool.aliases ?? []) {
    TOOL_ALIASES[alias] = tool.name;
    byNameOrAlias.set(alias, tool);
  }
}

for (const tool of [...TOOLS, ...GAME_TOOLS]) addTool(tool);

/** The container's `tools` command has the built-in tools' help built in; a plugin's tools among `names` come in AAR_TOOL_HELP. */
export function pluginToolHelpEnv(names: readonly string[]): Record<string, string> {
  const added = names.flatMap((n) => (TOOL_REGISTRY.has(n) && TOOL_REGISTRY.fromOf(n) !== BUILT_IN ? [toolHelp(TOOL_REGISTRY.get(n))] : []));
  return added.length ? { AAR_TOOL_HELP: JSON.stringify(added) } : {};
}

/** The tool a name refers to, following aliases; undefined for an unknown name. One lookup: scoring asks for every logged call. */
export function findTool(name: string): ToolDefinition | undefined {
  return byNameOrAlias.get(name);
}

export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** Validates and normalises arguments; the error is one line, ready to be returned as `Error: ...`. */
export function checkToolArgs(tool: ToolDefinition, args: unknown): ArgsCheck {
  const parsed = tool.args.safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  return { ok: false, error: `invalid arguments for ${tool.name}: ${problems.join('; ')}` };
}
