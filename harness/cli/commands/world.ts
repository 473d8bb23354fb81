import type { Command } from 'commander';

export function registerWorldCommands(program: Command): void {
  const world = program.command('world').description('tool-response stores for replay');
  world
    .command('synthesize')
    .argument('<legs>', 'leg file or folder')
    .argument('<out>', 'the store folder to write')
    .description("write a synthetic 'golden world' store: responses that give an agent following each leg's golden path its golden values (for smoke and load tests; not real data)")
    .action(async (legsPath: string, out: string) => {
      const { loadLegs } = await import('../../../tasks/aar/load.js');
      const { InputError } = await import('../../../tasks/problems.js');
      const { ResponseStore } = await import('../../../tools/store/store.js');
      const { synthesizeWorld } = await import('../../../tasks/aar/world/synthesize.js');
      const { legs, problems } = await loadLegs(legsPath);
      if (problems.length) throw new InputError(problems);
      const report = await synthesizeWorld(legs, new ResponseStore(out));
      process.stdout.write(
        `synthetic world for ${report.legs} legs in ${out}: ${report.pages} pages, ${report.toolResponses} tool responses, ` +
          `${report.conflicts.length} conflicts (first answer kept), ${report.skipped.length} steps skipped\n`,
      );
      for (const c of report.conflicts.slice(0, 10)) process.stdout.write(`  conflict: ${c}\n`);
    });
}
