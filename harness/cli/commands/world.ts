import type { Command } from 'commander';
import { addFilterOptions, filterFromFlags, type FilterFlags } from '../../../tasks/aar/cli-flags.js';

export function registerWorldCommands(program: Command): void {
  const world = program.command('world').description('tool-response stores for replay');
  addFilterOptions(world.command('synthesize').argument('<legs>', 'leg file or folder').argument('<out>', 'the store folder to write'))
    .description("write a synthetic 'golden world' store: responses that give an agent following each leg's golden path its golden values (for smoke and load tests; not real data); the leg filters choose which legs")
    .action(async (legsPath: string, out: string, flags: FilterFlags) => {
      const { loadLegs } = await import('../../../tasks/aar/load.js');
      const { filterLegs } = await import('../../../tasks/aar/filter.js');
      const { InputError } = await import('../../../tasks/problems.js');
      const { ResponseStore } = await import('../../../tools/store/store.js');
      const { synthesizeWorld } = await import('../../../tasks/aar/world/synthesize.js');
      const { legs: loaded, problems } = await loadLegs(legsPath);
      if (problems.length) throw new InputError(problems);
      const legs = filterLegs(loaded, await filterFromFlags(flags));
      if (!legs.length) throw new Error(`${legsPath}: no leg of the ${loaded.length} loaded matches the filters`);
      const report = await synthesizeWorld(legs, new ResponseStore(out));
      process.stdout.write(
        `synthetic world for ${report.legs} legs in ${out}: ${report.pages} pages, ${report.toolResponses} tool responses, ` +
          `${report.keptFirst.length} conflicts (first answer kept), ${report.legEntries} per-leg answers (${report.conflicts.length} where a leg disagrees with the shared answer, ${report.merged.length} holding two answers one leg needs), ${report.skipped.length} steps skipped\n`,
      );
      for (const c of report.keptFirst.slice(0, 10)) process.stdout.write(`  conflict: ${c}\n`);
      for (const c of report.conflicts.slice(0, 10)) process.stdout.write(`  per-leg answer: ${c}\n`);
      if (report.mergedLegs.length) {
        process.stdout.write(`${report.mergedLegs.length} legs ask one call twice on their golden path expecting two values; their answer holds both, one per line: ${report.mergedLegs.join(', ')}\n`);
      }
    });
}
