/**
 * The plugin API: what a package or a folder outside this repository exports to add entries to the seams
 * (task families, agents, environments, tool providers and tools, model APIs, export formats). A plugin is
 * one object, made with definePlugin and exported as the module's default; `plugins:` in a job config or
 * `--plugin` loads it (load.ts). `apiVersion` is the version of this API it was built for: another is refused
 * with one line, so a plugin never half-works with a harness it was not made for.
 */
import type { EnvironmentDefinition } from '../environments/define.js';
import type { AgentAdapter } from '../agents/types.js';
import type { ModelApiModule } from '../gateway/models/apis/types.js';
import type { Exporter } from '../../verifier/export/types.js';
import type { FamilyDeclaration, TaskFamily } from '../../tasks/family.js';
import type { ProviderSpec } from '../../tools/providers/define.js';
import type { ToolSpec } from '../../tools/catalog/types.js';

/** The version of this API. A change that would break a plugin written for it raises it. */
export const PLUGIN_API_VERSION = 1;

/** A task family given whole, with what its declaration says besides (families.ts): example tasks for its conformance suite, its extra trial files, its commands. */
export type PluginFamily<Task extends { id: string; file: string; source: Buffer } = any, Score extends object = any, Figures extends object = any> = TaskFamily<Task, Score, Figures> &
  Pick<FamilyDeclaration, 'examples' | 'trialFiles' | 'cli'>;

/**
 * A tool as a plugin writes it (tools/catalog/types.ts's ToolSpec, with its group and provider named freely):
 * `runsIn: 'gateway'` with `provider: 'trial-session'` (served by its family's toolSession), or the name of a
 * provider (the plugin's own, or a built-in one) and a `run`; `runsIn: 'container'` for a tool the agent runs
 * itself.
 */
export type PluginToolSpec = Omit<ToolSpec, 'group' | 'provider' | 'runsIn'> & { group: string; runsIn: 'gateway' | 'container'; provider?: string };

/** A tool provider (its transport: endpoints, host key variables, limits) and the tools it serves. */
export type PluginToolProvider = ProviderSpec & { tools?: readonly PluginToolSpec[] };

export interface Plugin {
  /** PLUGIN_API_VERSION of the harness it was built for. */
  apiVersion: number;
  /** Its name, as `aar plugins list` shows where entries came from (an npm package's name, say). */
  name: string;
  version?: string;
  families?: readonly PluginFamily[];
  agents?: readonly AgentAdapter[];
  environments?: readonly EnvironmentDefinition<any>[];
  toolProviders?: readonly PluginToolProvider[];
  /** Tools that need no provider of the plugin's own (a trial session's, a container's, or over a built-in provider). */
  tools?: readonly PluginToolSpec[];
  modelApis?: readonly ModelApiModule[];
  exporters?: readonly Exporter[];
}

/** A plugin, typed: `export default definePlugin({ apiVersion: PLUGIN_API_VERSION, name: 'my-plugin', families: [...] })`. */
export function definePlugin<P extends Plugin>(plugin: P): P {
  return plugin;
}
