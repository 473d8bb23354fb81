/**
 * The seams a plugin adds to, one line each: the plugin's key, the seam's registry (what `aar plugins list`
 * shows), how an entry is registered, and the seam's conformance suite (what `aar plugins check` runs).
 */
import type { ConformanceSuite } from '../../common/conformance.js';
import type { Registry } from '../../common/registry.js';
import { familySuite } from '../../tasks/conformance.js';
import { addFamily, FAMILIES } from '../../tasks/families.js';
import type { FamilyDeclaration } from '../../tasks/family.js';
import { defineTool } from '../../tools/catalog/define.js';
import { addTool, toolClash, TOOL_REGISTRY, type ToolDefinition, type ToolSpec } from '../../tools/catalog/index.js';
import { toolsSuite } from '../../tools/conformance.js';
import { addToolProvider, providerClash, TOOL_PROVIDERS } from '../../tools/providers/index.js';
import type { ProviderSpec } from '../../tools/providers/define.js';
import { exporterSuite } from '../../verifier/export/conformance.js';
import { EXPORTER_REGISTRY } from '../../verifier/export/registry.js';
import type { Exporter } from '../../verifier/export/types.js';
import { agentSuite } from '../agents/conformance.js';
import { AGENTS } from '../agents/registry.js';
import type { AgentAdapter } from '../agents/types.js';
import { registeredEnvironmentSuite } from '../environments/conformance.js';
import { defineEnvironment, ENVIRONMENTS, type EnvironmentDefinition } from '../environments/define.js';
import '../environments/registry.js';
import { modelApiSuite } from '../gateway/models/apis/conformance.js';
import { addModelApi, MODEL_API_REGISTRY, modelApiClash } from '../gateway/models/apis/registry.js';
import type { ModelApiModule } from '../gateway/models/apis/types.js';
import type { Plugin, PluginFamily, PluginToolSpec } from './api.js';

/** A family given whole, as the registry declares families. */
export function familyDeclarationOf(family: PluginFamily): FamilyDeclaration {
  const { examples, trialFiles, cli } = family;
  return { name: family.name, family: async () => family, scorer: async () => family, examples, trialFiles, cli };
}

const defined = new WeakMap<PluginToolSpec, ToolDefinition>();

/** A plugin's tool as the registry holds it: made once per spec, so its suite checks the very entry registered. */
export function toolOf(spec: PluginToolSpec): ToolDefinition {
  let tool = defined.get(spec);
  if (!tool) defined.set(spec, (tool = defineTool(spec as ToolSpec)));
  return tool;
}

/** A provider with the tools it serves, as the registries hold them. */
export interface ProviderWithTools {
  provider: ProviderSpec;
  tools: ToolDefinition[];
}

export interface Seam<Entry> {
  /** The plugin's key (`families`) and what an entry is (`task family`). */
  key: keyof Plugin;
  seam: string;
  /** The registry `aar plugins list` reads. */
  registry: Registry<unknown>;
  /** The entries of a plugin, in the registries' shape. */
  entries(plugin: Plugin): Entry[];
  nameOf(entry: Entry): string;
  /** Why the entry cannot be registered beyond its name being taken (a tool's alias, a route), or undefined: checked for every entry of a plugin before any is registered. */
  clash?(entry: Entry): string | undefined;
  register(entry: Entry, from: string): void | Promise<void>;
  suite(entry: Entry, plugin: Plugin): ConformanceSuite;
}

const seam = <Entry>(s: Seam<Entry>): Seam<unknown> => s as Seam<unknown>;
const suiteLabel = (name: string): string => `aar-pc${process.pid}-${name}`.slice(0, 20);

/** In the order a plugin's entries are registered: tools before the families that offer them, families before the agents that play them. */
export const SEAMS: readonly Seam<unknown>[] = [
  seam<ProviderWithTools>({
    key: 'toolProviders', seam: 'tool provider', registry: TOOL_PROVIDERS as Registry<unknown>,
    entries: (p) => (p.toolProviders ?? []).map(({ tools, ...provider }) => ({ provider, tools: (tools ?? []).map(toolOf) })),
    nameOf: (e) => e.provider.name,
    clash: (e) => providerClash(e.provider) ?? e.tools.map(toolClash).find(Boolean),
    register(e, from) {
      addToolProvider(e.provider, from);
      for (const tool of e.tools) addTool(tool, from);
    },
    suite: (e) => toolsSuite(e.provider.name, e.tools, e.provider),
  }),
  seam<ToolDefinition>({
    key: 'tools', seam: 'tool', registry: TOOL_REGISTRY as Registry<unknown>,
    entries: (p) => (p.tools ?? []).map(toolOf),
    nameOf: (t) => t.name,
    clash: toolClash,
    register: (t, from) => addTool(t, from),
    suite: (t) => toolsSuite(t.name, [t], undefined, 'tool'),
  }),
  seam<ModelApiModule>({ key: 'modelApis', seam: 'model API', registry: MODEL_API_REGISTRY as Registry<unknown>, entries: (p) => [...(p.modelApis ?? [])], nameOf: (m) => m.id, clash: modelApiClash, register: addModelApi, suite: modelApiSuite }),
  seam<EnvironmentDefinition>({
    key: 'environments', seam: 'environment', registry: ENVIRONMENTS as Registry<unknown>, entries: (p) => [...(p.environments ?? [])], nameOf: (e) => e.name,
    register: (e, from) => defineEnvironment(e, from),
    suite: (e) => registeredEnvironmentSuite(e, suiteLabel(e.name)),
  }),
  seam<FamilyDeclaration>({ key: 'families', seam: 'task family', registry: FAMILIES as Registry<unknown>, entries: (p) => (p.families ?? []).map(familyDeclarationOf), nameOf: (d) => d.name, register: addFamily, suite: (d) => familySuite(d) }),
  seam<AgentAdapter>({ key: 'agents', seam: 'agent', registry: AGENTS as Registry<unknown>, entries: (p) => [...(p.agents ?? [])], nameOf: (a) => a.name, register: (a, from) => void AGENTS.add(a, from), suite: agentSuite }),
  seam<Exporter>({ key: 'exporters', seam: 'export format', registry: EXPORTER_REGISTRY as Registry<unknown>, entries: (p) => [...(p.exporters ?? [])], nameOf: (e) => e.name, register: (e, from) => void EXPORTER_REGISTRY.add(e, from), suite: exporterSuite }),
];
