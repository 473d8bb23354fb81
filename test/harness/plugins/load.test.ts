/**
 * Plugins in process: the example plugin (examples/plugins/keychain) loads from its folder and registers its
 * entries under its name; a job config's `plugins:` must be loaded before the config is checked; a plugin for
 * another API version, a malformed one and one whose names are taken are each one line, and register nothing.
 */
import { HARNESS_VERSION } from '../../../harness/version.js';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AGENTS } from '../../../harness/agents/registry.js';
import { parseJobConfig } from '../../../harness/config/load.js';
import { jobConfigSchema } from '../../../harness/config/schema.js';
import { ENVIRONMENTS } from '../../../harness/environments/define.js';
import { MODEL_APIS } from '../../../harness/gateway/models/apis/registry.js';
import { PLUGIN_API_VERSION } from '../../../harness/plugins/api.js';
import { checkPlugin } from '../../../harness/plugins/check.js';
import { loadPlugin } from '../../../harness/plugins/load.js';
import { SEAMS } from '../../../harness/plugins/seams.js';
import { FAMILIES } from '../../../tasks/families.js';
import { findFamily } from '../../../tasks/registry.js';
import { findTool } from '../../../tools/catalog/index.js';
import { EXPORTERS } from '../../../verifier/export/registry.js';
import { configProblems } from '../../helpers/config-problems.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';

const EXAMPLE = path.join(REPO_ROOT, 'examples', 'plugins', 'keychain');
const tmp = tempDir('aar-plugins-');
afterAll(() => tmp.cleanup());

/** A copy of the example plugin with its index.js changed by `edit`, in a folder of its own. */
function variant(name: string, edit: (index: string) => string): string {
  const dir = path.join(tmp.dir, name);
  cpSync(EXAMPLE, dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.js'), edit(readFileSync(path.join(dir, 'index.js'), 'utf8')));
  return dir;
}

const listed = () => SEAMS.flatMap((s) => s.registry.registered().map((r) => `${s.seam} ${r.name}: ${r.from}`));

describe('plugins', () => {
  test("a job config's plugins must be loaded before it is checked: said first, with the file, line and field", () => {
    const yaml = 'plugins: [./keychain]\ntasks:\n  family: keychain\n  path: tasks\nagents:\n  - name: hopper\n';
    expect(configProblems(yaml)).toEqual(['job.yaml:1:11: plugins[0]: plugin ./keychain is not loaded (`aar run` loads a config\'s plugins; from the library, loadPlugins() before parseJobConfig())']);
  });

  test('a plugin for another API version is one line, naming its file, and registers nothing', async () => {
    const before = listed();
    const dir = variant('future', (text) => text.replace('apiVersion: PLUGIN_API_VERSION', `apiVersion: ${PLUGIN_API_VERSION + 1}`));
    await expect(loadPlugin(dir)).rejects.toThrow(new Error(`${path.join(dir, 'index.js')}: plugin aar-plugin-keychain is built for plugin API ${PLUGIN_API_VERSION + 1}; aar-harness ${HARNESS_VERSION} has plugin API ${PLUGIN_API_VERSION}`));
    expect(listed()).toEqual(before);
  });

  test('a malformed plugin is one line naming the file and the field; one whose names are taken registers nothing', async () => {
    const before = listed();
    const broken = variant('broken', (text) => text.replace('agents: [hopperAgent],', 'agents: [{ ...hopperAgent, launch: 5 }],'));
    await expect(loadPlugin(broken)).rejects.toThrow(new Error(`${path.join(broken, 'index.js')}: plugin aar-plugin-keychain: agents.0.launch: a function`));
    const clash = variant('clash', (text) => text.replace("agents: [hopperAgent],", "agents: [hopperAgent, { ...hopperAgent, name: 'oracle' }],"));
    await expect(loadPlugin(clash)).rejects.toThrow(/: agent 'oracle' is already registered by built-in$/);
    // A provider whose tool takes a built-in tool's name: refused before the provider is registered.
    const taken = variant('taken', (text) => text.replace("exporters: [csvExporter],", "exporters: [csvExporter],\n  toolProviders: [{ name: 'kc-api', endpoints: { kcApi: 'https://kc.example.org' }, tools: [{ ...keychainGet, name: 'fetch_webpage', provider: 'kc-api', run: async () => ({ ok: true, text: '' }) }] }],"));
    await expect(loadPlugin(taken)).rejects.toThrow(/: tool 'fetch_webpage': the name 'fetch_webpage' is another tool's$/);
    expect(listed()).toEqual(before);
    await expect(loadPlugin('./no-such-plugin', tmp.dir)).rejects.toThrow(`plugin ./no-such-plugin: no such file or folder ${path.join(tmp.dir, 'no-such-plugin')}`);
    await expect(loadPlugin('aar-plugin-nowhere', tmp.dir)).rejects.toThrow(`plugin aar-plugin-nowhere: no package aar-plugin-nowhere in node_modules above ${tmp.dir}`);
  });

  test('the example plugin registers its family, tool, agent and export format under its name; a config naming it then loads', async () => {
    const loaded = await loadPlugin('./keychain', path.join(REPO_ROOT, 'examples', 'plugins'));
    const from = `aar-plugin-keychain@0.1.0 (${path.relative(process.cwd(), path.join(EXAMPLE, 'index.js'))})`;
    expect(loaded.from).toBe(from);
    expect(listed().filter((l) => l.endsWith(from))).toEqual([`tool keychain_get: ${from}`, `task family keychain: ${from}`, `agent hopper: ${from}`, `export format csv: ${from}`]);
    expect(findFamily('keychain')?.sliceKeys).toEqual(['set', 'level']);
    expect(FAMILIES.fromOf('aar')).toBe('built-in');
    expect(findTool('keychain_get')?.provider).toBe('trial-session');
    expect(AGENTS.get('hopper').families).toEqual(['keychain']);
    expect(EXPORTERS.map((e) => e.name)).toContain('csv');
    // Loading it again (the same file) is nothing; the config's `plugins:` is now loaded, from the config's folder.
    expect(await loadPlugin(EXAMPLE)).toBe(loaded);
    const config = parseJobConfig(path.join(EXAMPLE, 'job.yaml'), readFileSync(path.join(EXAMPLE, 'job.yaml'), 'utf8'));
    expect(config.plugins).toEqual(['.']);
    expect(config.tasks).toMatchObject({ family: 'keychain', path: 'tasks' });
    expect(configProblems('tasks:\n  family: keychain\n  path: t\n  levels: [easy]\nagents:\n  - name: hopper\n    options: {}\n')).toEqual([]);
  });

  test("the example plugin passes every one of its seams' conformance suites", async () => {
    const loaded = await loadPlugin(EXAMPLE);
    const results = await checkPlugin(loaded.plugin);
    expect(results.map((r) => `${r.seam} ${r.entry}`)).toEqual(['tool keychain_get', 'task family keychain', 'agent hopper', 'export format csv']);
    const failed = results.flatMap((r) => r.outcomes.filter((o) => o.status !== 'passed').map((o) => `${r.entry}: ${o.check}: ${o.detail}`));
    expect(failed).toEqual([]);
  });

  test("a plugin's environment and model API bring their keys to the job config", async () => {
    const dir = path.join(tmp.dir, 'seams');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'aar-plugin-seams', version: '1.0.0', type: 'module', exports: './index.js' }));
    writeFileSync(
      path.join(dir, 'index.js'),
      `import { definePlugin, PLUGIN_API_VERSION, environmentProvider } from 'aar-harness';
import { anthropicApi } from './anthropic.js';
export default definePlugin({
  apiVersion: PLUGIN_API_VERSION, name: 'aar-plugin-seams',
  environments: [{ name: 'plugin-docker', leftovers: 'containers', settings: (z) => z.strictObject({ note: z.string() }), create: () => environmentProvider('docker') }],
  modelApis: [{ ...anthropicApi, id: 'plugin-mock', routes: anthropicApi.routes.map((r) => ({ ...r, path: r.path.replace('/anthropic/', '/plugin-mock/'), api: r.api.replace('anthropic', 'plugin-mock') })), prices: {}, examples: {} }],
});
`,
    );
    writeFileSync(path.join(dir, 'anthropic.js'), `export { anthropicApi } from '${path.join(REPO_ROOT, 'harness/gateway/models/apis/anthropic/index.ts')}';\n`);
    await loadPlugin(dir);
    expect(ENVIRONMENTS.fromOf('plugin-docker')).toBe(`aar-plugin-seams@1.0.0 (${path.relative(process.cwd(), path.join(dir, 'index.js'))})`);
    expect(MODEL_APIS.map((m) => m.id)).toContain('plugin-mock');
    const shape = jobConfigSchema().shape as Record<string, unknown>;
    expect(Object.keys(shape)).toEqual(expect.arrayContaining(['plugin-docker']));
    expect(configProblems('tasks:\n  path: legs\nagents:\n  - name: oracle\nenvironment: plugin-docker\nplugin-docker:\n  note: x\nmodels:\n  plugin-mock_base_url: http://127.0.0.1:9\n')).toEqual([]);
    expect(configProblems('tasks:\n  path: legs\nagents:\n  - name: oracle\nplugin-docker:\n  nope: x\n')).toEqual([
      'job.yaml:6:3: plugin-docker.note: Invalid input: expected string, received undefined',
      'job.yaml:6:3: plugin-docker.nope: unknown key; did you mean note?',
    ]);
  });
});
