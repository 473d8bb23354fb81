import type { Command } from 'commander';
import { addFormatOption, formatOf } from '../../../common/format-option.js';

export function registerToolsCommands(program: Command): void {
  const tools = program.command('tools').description('the 19 AAR tools');
  addFormatOption(tools.command('list').description('list the tools with their arguments'), 'name, group, summary, params, example of each')
    .action(async (flags: { format?: string; json?: boolean }) => {
      const format = formatOf(flags);
      const { TOOLS, TOOL_ALIASES } = await import('../../../tools/catalog/index.js');
      if (format === 'json') {
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
