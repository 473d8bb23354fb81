import type { Command } from 'commander';

export function registerToolsCommands(program: Command): void {
  const tools = program.command('tools').description('the 19 AAR tools');
  tools
    .command('list')
    .description('list the tools with their arguments')
    .option('--json', 'print JSON (name, group, summary, params, example)')
    .action(async (flags: { json?: boolean }) => {
      const { TOOLS, TOOL_ALIASES } = await import('../../../tools/catalog/index.js');
      if (flags.json) {
        const out = TOOLS.map(({ name, group, summary, returns, params, example, runsIn }) => ({ name, group, summary, returns, params, example, runsIn }));
        process.stdout.write(JSON.stringify(out, null, 2) + '\n');
        return;
      }
      for (const t of TOOLS) {
        const args = t.params.map((p) => (p.required ? p.name : `[${p.name}]`)).join(', ');
        process.stdout.write(`${t.name.padEnd(24)} ${t.group.padEnd(10)} (${args})\n`);
      }
      const aliases = Object.entries(TOOL_ALIASES).map(([a, t]) => `${a} -> ${t}`);
      process.stdout.write(`${TOOLS.length} tools; aliases: ${aliases.join(', ')}\n`);
    });
}
