import type { Command } from 'commander';
import { addFilterOptions, loadFilteredLegs as filteredLegs, type FilterFlags } from '../../../tasks/aar/cli-flags.js';
import { registerWorldAuditCommands } from './world-audit.js';

export function registerWorldCommands(program: Command): void {
  const world = program.command('world').description("the tools' worlds: stores of tool answers (synthesize, info, pack, unpack), the drift audit, a stand-in upstream");
  addFilterOptions(world.command('synthesize').argument('<legs>', 'leg file or folder').argument('<out>', 'the store folder to write'))
    .description("write a synthetic 'golden world' store: responses that give an agent following each leg's golden path its golden values (for smoke and load tests; not real data); the leg filters choose which legs")
    .action(async (legsPath: string, out: string, flags: FilterFlags) => {
      const { ResponseStore } = await import('../../../tools/store/store.js');
      const { synthesizeWorld } = await import('../../../tasks/aar/world/synthesize.js');
      const { HARNESS_VERSION } = await import('../../version.js');
      const legs = await filteredLegs(legsPath, flags);
      const report = await synthesizeWorld(legs, new ResponseStore(out, { recorder: { harnessVersion: HARNESS_VERSION, mode: 'synthesize', endpoints: {} } }));
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

  world
    .command('info')
    .argument('<store>', 'a store folder')
    .option('--format <format>', 'text or json', 'text')
    .description("a store's provenance (when and by which harness version it was made, each recording session with its endpoints, when its entries were recorded), its entries by tool and source, and its world's fingerprint (what aar compare checks)")
    .action(async (store: string, flags: { format: string }) => {
      const { existsSync } = await import('node:fs');
      if (!existsSync(store)) throw new Error(`${store}: no such store folder`);
      const { describeStore, formatStoreInfo } = await import('../../../tools/store/info.js');
      const info = describeStore(store);
      process.stdout.write(flags.format === 'json' ? JSON.stringify(info, null, 2) + '\n' : formatStoreInfo(info) + '\n');
    });

  world
    .command('pack')
    .argument('<store>', 'a store folder')
    .argument('<file>', 'the file to write (a gzipped tar, e.g. world.tar.gz)')
    .description("a store as one file (its entries, its provenance, a manifest of every file's sha256), to run on the same world elsewhere")
    .action(async (store: string, file: string) => {
      const { packStore } = await import('../../../tools/store/pack.js');
      const r = await packStore(store, file);
      process.stdout.write(`packed ${r.entries} entries (${r.files} files, ${r.bytes} bytes) of ${store} into ${file}; world sha256 ${r.fingerprint}\n`);
    });

  world
    .command('unpack')
    .argument('<file>', 'a file made by aar world pack')
    .argument('<dir>', 'the store folder to make (must not exist, or be empty)')
    .description('a packed store back into a folder, every file checked against its manifest; prints the world fingerprint to compare with the packer\'s')
    .action(async (file: string, dir: string) => {
      const { unpackStore } = await import('../../../tools/store/pack.js');
      const r = await unpackStore(file, dir);
      process.stdout.write(`unpacked ${r.entries} entries (${r.files} files) into ${dir}; world sha256 ${r.fingerprint}\n`);
    });

  registerWorldAuditCommands(world);
}
