import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';

interface CompareFlags {
  allowUnequal?: boolean;
  paper?: boolean;
  format: string;
  out?: string;
  seed: string;
  resamples: string;
  reduce: string;
}

const wholeNumber = (flag: string, value: string, min: number): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag}: expected a whole number >= ${min}, got ${value}`);
  return n;
};

export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .argument('<job-or-agent...>', 'job folders (every agent) or JOB:AGENT (one agent configuration)')
    .description('compare agent configurations at equal budgets, paired on shared legs; --paper adds the AAR paper\'s tables')
    .option('--allow-unequal', 'compare although budgets differ (every table is marked)')
    .option('--paper', "add the paper's views (AAR: tables 3, 7, 8, 9, 11, 12, shortcuts, Linear -> DAG; WikiRace: Table 1, Figure 1 with the probes under JOB/probes/, loops and Figure 10, Figures 5 and 8a-c)")
    .option('--format <format>', 'md, csv or json', 'md')
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--seed <n>', 'seed of the paired bootstrap', '0')
    .option('--resamples <n>', 'bootstrap resamples and Monte Carlo sign flips', '2000')
    .option('--reduce <reducer>', "how a leg's attempts become its one value for FA: mean, pass@k (any right) or pass^k (all right)", 'mean')
    .action(async (args: string[], flags: CompareFlags) => {
      const { TABLE_FORMATS, renderTables } = await import('../../../verifier/compare/render.js');
      if (!(TABLE_FORMATS as readonly string[]).includes(flags.format)) throw new Error(`--format: expected one of ${TABLE_FORMATS.join(', ')}, got ${flags.format}`);
      const seed = wholeNumber('--seed', flags.seed, 0);
      const resamples = wholeNumber('--resamples', flags.resamples, 100);
      const { REDUCERS } = await import('../../../verifier/compare/pairing.js');
      if (!(REDUCERS as readonly string[]).includes(flags.reduce)) throw new Error(`--reduce: expected one of ${REDUCERS.join(', ')}, got ${flags.reduce}`);
      const { loadConfigurations } = await import('../../../verifier/compare/select.js');
      const { compareConfigurations } = await import('../../../verifier/compare/compare.js');
      const configs = loadConfigurations(args);
      const { tamperWarnings } = await import('../../../verifier/results.js');
      for (const line of tamperWarnings([...new Set(configs.flatMap((c) => c.trials))])) process.stderr.write(line + '\n');
      const result = compareConfigurations(configs, { allowUnequal: flags.allowUnequal, seed, resamples, reducer: flags.reduce as (typeof REDUCERS)[number] });
      let tables = result.tables;
      if (flags.paper) {
        const { paperTables } = await import('../../../verifier/paper-tables/index.js');
        tables = [...tables, ...paperTables(configs, { budgets: result.budgets, legs: result.pairing.sharedLegIds, reducer: result.reducer })];
      }
      const { namedSlices } = await import('../../../verifier/compare/compare-tables.js');
      const { taskFamily } = await import('../../../tasks/registry.js');
      const text =
        flags.format === 'json'
          ? JSON.stringify({ ...result, paired: namedSlices(result.paired, taskFamily(result.family).sliceKeys), tables }, null, 2) + '\n'
          : renderTables(tables, flags.format as 'md' | 'csv');
      if (flags.out) {
        writeFileSync(flags.out, text);
        process.stdout.write(`wrote ${flags.out}\n`);
      } else {
        process.stdout.write(text);
      }
    });
}
