/**
 * The tool provider conformance suite: a provider (its transport: endpoints, key variables, limits) and the
 * tools it serves, or tools that need none (served by a trial's own session, or run in the container). Each
 * tool is registered once under its name, documents every argument, takes its own example, and says where it
 * runs. Library code: Jest runs it for every registered provider, `aar plugins check` for a plugin's.
 */
import assert from 'node:assert/strict';
import type { ConformanceSuite } from '../common/conformance.js';
import { checkToolArgs, findTool, toolHelp, type ToolDefinition } from './catalog/index.js';
import type { ProviderSpec } from './providers/define.js';
import { TOOL_PROVIDERS } from './providers/index.js';

const PROVIDER_NAME = /^[a-z][a-z0-9-]*$/;
const TOOL_NAME = /^[a-z][a-z0-9_]*$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** `entry` names the suite (the provider's name, or what the tools are); `provider` is absent for tools that need none. */
export function toolsSuite(entry: string, tools: readonly ToolDefinition[], provider?: ProviderSpec, seam = 'tool provider'): ConformanceSuite {
  return {
    seam,
    entry,
    checks: [
      {
        name: 'the provider has a name, URL endpoints, key variables and positive limits',
        run: () => {
          if (!provider) return;
          assert.match(provider.name, PROVIDER_NAME);
          for (const [name, url] of Object.entries(provider.endpoints)) assert.match(url, /^https?:\/\/[^\s]+$/, `endpoint ${name}`);
          for (const [key, variable] of Object.entries(provider.keys ?? {})) assert.match(variable, ENV_NAME, `key ${key}`);
          for (const [key, limits] of Object.entries(provider.limits ?? {})) {
            for (const [field, value] of Object.entries(limits)) assert.ok(typeof value === 'number' && value > 0, `limits.${key}.${field}: ${String(value)}`);
          }
        },
      },
      {
        name: 'each tool is registered once, under a snake_case name and aliases of its own',
        run: () => {
          for (const tool of tools) {
            for (const name of [tool.name, ...(tool.aliases ?? [])]) {
              assert.match(name, TOOL_NAME);
              assert.equal(findTool(name), tool, `${name}: the registry holds another tool under this name`);
            }
          }
        },
      },
      {
        name: 'each tool documents every argument, and takes its own example',
        run: () => {
          for (const tool of tools) {
            assert.ok(tool.summary.trim() && tool.returns.trim(), `${tool.name}: a summary and what it returns`);
            assert.ok(tool.params.every((p) => p.doc.trim()), `${tool.name}: an argument without documentation`);
            const checked = checkToolArgs(tool, tool.example);
            assert.ok(checked.ok, `${tool.name}: its example ${checked.ok ? '' : checked.error}`);
            assert.doesNotThrow(() => JSON.stringify(toolHelp(tool)), `${tool.name}: its help for the container`);
          }
        },
      },
      {
        name: 'each tool says where it runs: over this provider (with a run), in a trial session, or in the container',
        run: () => {
          for (const tool of tools) {
            if (tool.runsIn === 'container') {
              assert.equal(tool.provider, undefined, `${tool.name}: a container tool names a provider`);
            } else if (tool.provider === 'trial-session') {
              assert.equal(provider, undefined, `${tool.name}: served by a trial session, not by ${provider?.name}`);
            } else {
              assert.equal(tool.provider, provider?.name, `${tool.name}: names the provider ${tool.provider}`);
              assert.ok(TOOL_PROVIDERS.has(tool.provider ?? ''), `${tool.name}: its provider ${tool.provider} is not registered`);
              assert.equal(typeof tool.run, 'function', `${tool.name}: runs on the host but has no run`);
            }
          }
        },
      },
    ],
  };
}
