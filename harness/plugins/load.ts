/**
 * Loading plugins: a spec is an npm package's name (found in node_modules above the config's folder, or
 * the working directory) or a path (a folder with a package.json, or a module file). Its default export is
 * checked (a plugin for another API version is one line), then every entry is registered in its seam, under
 * `name@version (path)`. Nothing is registered when any entry's name is taken.
 */
import path from 'node:path';
import { register as registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { HARNESS_VERSION } from '../version.js';
import { PLUGIN_API_VERSION, type Plugin } from './api.js';
import { LOADED_PLUGINS, packageOf, resolvePlugin, type LoadedPlugin } from './loaded.js';
import { SEAMS } from './seams.js';

const fn = z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', 'a function');
const named = (key: string) => z.looseObject({ [key]: z.string().min(1) });
const PluginSchema = z.looseObject({
  apiVersion: z.number().int(),
  name: z.string().min(1),
  version: z.string().optional(),
  families: z.array(named('name').extend({ load: fn, score: fn, describe: fn })).optional(),
  agents: z.array(named('name').extend({ launch: fn })).optional(),
  environments: z.array(named('name').extend({ create: fn, leftovers: z.string() })).optional(),
  toolProviders: z.array(named('name').extend({ endpoints: z.record(z.string(), z.string()), tools: z.array(named('name')).optional() })).optional(),
  tools: z.array(named('name').extend({ args: fn })).optional(),
  modelApis: z.array(named('id').extend({ routes: z.array(named('path')), tokens: fn })).optional(),
  exporters: z.array(named('name').extend({ write: fn })).optional(),
});

/** The plugin a module exports (its default, else `plugin`), checked; a bad one is one line naming the file and the field. */
function pluginOf(module: Record<string, unknown>, file: string): Plugin {
  const candidate = module.default ?? module.plugin;
  if (!candidate || typeof candidate !== 'object') throw new Error(`${file}: exports no plugin (export default definePlugin({...}))`);
  const apiVersion = (candidate as { apiVersion?: unknown }).apiVersion;
  const name = String((candidate as { name?: unknown }).name ?? path.basename(file));
  if (typeof apiVersion === 'number' && apiVersion !== PLUGIN_API_VERSION) {
    throw new Error(`${file}: plugin ${name} is built for plugin API ${apiVersion}; aar-harness ${HARNESS_VERSION} has plugin API ${PLUGIN_API_VERSION}`);
  }
  const parsed = PluginSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: plugin ${name}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return candidate as Plugin;
}

/** Registers every entry of a plugin, each seam in SEAMS order; first checks that no name (nor a tool's alias, a route...) is taken. */
async function register(plugin: Plugin, from: string): Promise<void> {
  const planned = SEAMS.map((s) => ({ seam: s, entries: s.entries(plugin) }));
  for (const { seam, entries } of planned) {
    const names = entries.map((e) => seam.nameOf(e));
    const taken = names.find((n, i) => seam.registry.has(n) || names.indexOf(n) !== i);
    if (taken) throw new Error(`${from}: ${seam.seam} '${taken}' is ${seam.registry.has(taken) ? `already registered by ${seam.registry.fromOf(taken)}` : 'given twice'}`);
    const clash = entries.map((e) => seam.clash?.(e)).find(Boolean);
    if (clash) throw new Error(`${from}: ${clash}`);
  }
  // A tool a provider serves and a tool of its own with one name: the second would fail once the first is in.
  const tools = [...(plugin.toolProviders ?? []).flatMap((p) => p.tools ?? []), ...(plugin.tools ?? [])].flatMap((t) => [t.name, ...(t.aliases ?? [])]);
  const twice = tools.find((n, i) => tools.indexOf(n) !== i);
  if (twice) throw new Error(`${from}: tool '${twice}' is given twice`);
  for (const { seam, entries } of planned) for (const entry of entries) await seam.register(entry, from);
}

let hooked = false;

/** From now on `import 'aar-harness'` in any module is this package (resolve-hook.ts); not under a test runner's own loader. */
function resolveHarnessToItself(): void {
  if (hooked) return;
  hooked = true;
  const index = new URL('../../index.js', import.meta.url);
  if (typeof registerHooks === 'function' && index.pathname.endsWith('/dist/index.js')) registerHooks(new URL('./resolve-hook.js', import.meta.url), { data: { harness: index.href } });
}

/** Loads a plugin from `base` (a folder: the job config's, or the working directory); loading it again is nothing. */
export async function loadPlugin(spec: string, base: string = process.cwd()): Promise<LoadedPlugin> {
  let file: string;
  try {
    file = resolvePlugin(spec, base);
  } catch (error) {
    throw new Error(`plugin ${spec}: ${(error as Error).message}`);
  }
  const known = LOADED_PLUGINS.find((p) => p.file === file);
  if (known) return known;
  resolveHarnessToItself();
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`plugin ${spec} (${file}): cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
  }
  const plugin = pluginOf(module, file);
  const other = LOADED_PLUGINS.find((p) => p.name === plugin.name);
  if (other) throw new Error(`${file}: plugin ${plugin.name} is already loaded from ${other.file}`);
  // A package's version is its package.json's, unless the plugin says another.
  const pkg = packageOf(file);
  const version = plugin.version ?? (pkg?.name === plugin.name ? pkg.version : undefined);
  const from = `${plugin.name}${version ? `@${version}` : ''} (${path.relative(process.cwd(), file) || file})`;
  await register(plugin, from);
  const loaded: LoadedPlugin = { name: plugin.name, version: version ?? null, spec, base: path.resolve(base), file, from, plugin };
  LOADED_PLUGINS.push(loaded);
  return loaded;
}

/** Loads plugins one after the other (a later one may use an earlier one's entries). */
export async function loadPlugins(specs: readonly string[], base?: string): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const spec of specs) loaded.push(await loadPlugin(spec, base));
  return loaded;
}
