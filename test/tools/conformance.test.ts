/**
 * Every registered tool provider, with the tools it serves, passes the tool provider conformance suite
 * (tools/conformance.ts), and so do the tools that need no provider; a new provider or tool is tested without
 * editing this file.
 */
import { ALL_TOOLS } from '../../tools/catalog/index.js';
import { TOOL_PROVIDERS } from '../../tools/providers/index.js';
import { toolsSuite } from '../../tools/conformance.js';
import { describeConformance } from '../helpers/conformance.js';

for (const provider of TOOL_PROVIDERS.entries) describeConformance(toolsSuite(provider.name, ALL_TOOLS.filter((t) => t.provider === provider.name), provider));
describeConformance(toolsSuite('tools with no provider', ALL_TOOLS.filter((t) => !t.provider || t.provider === 'trial-session')));

test('every tool is in exactly one of the suites above', () => {
  const served = ALL_TOOLS.filter((t) => !t.provider || t.provider === 'trial-session' || TOOL_PROVIDERS.has(t.provider));
  expect(served).toHaveLength(ALL_TOOLS.length);
});
