import type { Command } from 'commander';

/** `aar plugins`: what the seams hold and where each entry came from; a plugin's entries through their seams' conformance suites. */
export function registerPluginsCommands(program: Command): void {
  const plugins = program.command('plugins').description('plugins: entries from outside this package (task families, agents, environments, tools, model APIs, export formats)');
  plugins
    .command('list')
    .description('every registered entry of every seam, and where it came from (built-in, or the plugin: name@version (path)); load plugins with --plugin')
    .option('--format <format>', 'text, or json', 'text')
    .action(async (flags: { format: string }) => {
      if (!['text', 'json'].includes(flags.format)) throw new Error(`--format: expected one of text, json, got ${flags.format}`);
      const { SEAMS } = await import('../../plugins/seams.js');
      // Listed as a reader looks for them: families and agents first; SEAMS is in registration order.
      const order = ['task family', 'agent', 'environment', 'tool provider', 'tool', 'model API', 'export format'];
      const seams = [...SEAMS].sort((a, b) => order.indexOf(a.seam) - order.indexOf(b.seam));
      const rows = seams.flatMap((s) => s.registry.registered().map((r) => ({ seam: s.seam, name: r.name, from: r.from })));
      if (flags.format === 'json') return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      const width = (key: 'seam' | 'name') => Math.max(key.length, ...rows.map((r) => r[key].length));
      const line = (r: { seam: string; name: string; from: string }) => `${r.seam.padEnd(width('seam'))}  ${r.name.padEnd(width('name'))}  ${r.from}\n`;
      process.stdout.write(line({ seam: 'seam', name: 'name', from: 'from' }) + rows.map(line).join(''));
    });
  plugins
    .command('check')
    .argument('<plugin>', 'the plugin: a folder (with its package.json), a module file, or an installed package\'s name')
    .description("load a plugin and run each of its entries through its seam's conformance suite (an environment's needs Docker: without it, it is skipped, saying so); exits 1 when a check fails")
    .action(async (spec: string) => {
      const { loadPlugin } = await import('../../plugins/load.js');
      const { checkPlugin, formatOutcomes } = await import('../../plugins/check.js');
      const loaded = await loadPlugin(spec);
      const results = await checkPlugin(loaded.plugin, (line) => process.stderr.write(`  ${line}\n`));
      process.stdout.write(formatOutcomes(loaded.from, results));
      if (results.some((r) => r.outcomes.some((o) => o.status === 'failed'))) process.exitCode = 1;
    });
}
