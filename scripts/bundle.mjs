// Build step: bundles what runs inside the container (the `tools` command into dist/tools-cli.cjs, the
// oracle and the players into dist/agents/) and the report page's script (dist/viewer-client.js). The tools
// command's help comes from the tool definitions (tools/catalog), compiled by tsc beforehand; the table is
// written into the bundle in place of container/help-table.ts, so the bundle needs neither zod nor the schemas.
import { build } from 'esbuild';
import { TOOL_HELP } from '../dist/container/help-table.js';

const helpTable = {
  name: 'tool-help-table',
  setup(b) {
    b.onLoad({ filter: /[\\/]container[\\/]help-table\.ts$/ }, () => ({
      contents: `export const TOOL_HELP = ${JSON.stringify(TOOL_HELP)};`,
      loader: 'js',
    }));
  },
};

const result = await build({
  entryPoints: ['container/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  minify: true,
  logLevel: 'warning',
  banner: { js: '#!/usr/bin/env node' },
  outfile: 'dist/tools-cli.cjs',
  plugins: [helpTable],
  metafile: true,
});

/** Every bundle that runs in a trial container is small and dependency-free: it is loaded once per trial. */
function refuseDependencies(out, metafile) {
  const packages = [...new Set(Object.keys(metafile.inputs).filter((input) => input.includes('node_modules/')).map((p) => p.split('node_modules/')[1].split('/')[0]))];
  if (packages.length) {
    console.error(`${out} must have no dependencies, but bundles: ${packages.join(', ')}`);
    process.exit(1);
  }
}
refuseDependencies('dist/tools-cli.cjs', result.metafile);

// The built-in programs that run inside trial containers (the oracles, the players): each one file, calling
// tools through the same client code as the `tools` command (with the same help table written in).
for (const [entry, out] of [
  ['tasks/aar/oracle.ts', 'dist/agents/oracle.cjs'],
  ['tasks/aar/random.ts', 'dist/agents/aar-random.cjs'],
  ['tasks/wikirace/player.ts', 'dist/agents/wikirace-player.cjs'],
  ['harness/agents/llm/player.ts', 'dist/agents/llm-player.cjs'],
]) {
  const built = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node18', minify: true, logLevel: 'warning', outfile: out, plugins: [helpTable], metafile: true });
  refuseDependencies(out, built.metafile);
}

// The HTML report's script, for the browser: one IIFE that verifier/html/page.ts inlines into every page.
await build({ entryPoints: ['verifier/html/browser/client.ts'], bundle: true, platform: 'browser', format: 'iife', target: 'es2020', minify: true, logLevel: 'warning', outfile: 'dist/viewer-client.js', supported: { 'inline-script': true } });
