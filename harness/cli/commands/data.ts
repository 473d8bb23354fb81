import type { Command } from 'commander';
import { addFormatOption, formatOf } from '../../../common/format-option.js';

export function registerDataCommands(program: Command): void {
  const data = program.command('data').description('released task sets by name: fetch them into the cache, list what is cached');
  data
    .command('fetch')
    .argument('<name>', 'a dataset: aar (the 1,400 legs of The Amazing Agent Race, from its authors\' repository)')
    .description("download the dataset's archive at its pinned commit, check its files against the pinned sha256, keep them in the cache and print their folder")
    .option('--url <url>', 'the archive to download instead (default: AAR_DATA_URL, else the repository\'s archive at the pinned commit)')
    .option('--sha256 <hex>', "the archive's own sha256, checked before anything is extracted")
    .option('--force', 'download again even when the cache holds the dataset')
    .action(async (name: string, flags: { url?: string; sha256?: string; force?: boolean }) => {
      const { fetchDataset } = await import('../../../tasks/datasets/fetch.js');
      const { datasetTasksDir } = await import('../../../tasks/datasets/catalog.js');
      const { fetched, source } = await fetchDataset(name, { url: flags.url, archiveSha256: flags.sha256, force: flags.force, log: (line) => process.stderr.write(`  ${line}\n`) });
      if (!fetched) process.stderr.write(`  ${name}: already in the cache (${source.files} files, fetched ${source.fetched_at}; --force fetches again)\n`);
      process.stdout.write(`${datasetTasksDir(name)}\n`);
    });
  addFormatOption(data.command('list').description('the known datasets: whether each is in the cache, where, how many files, from which commit'), 'the cache folder and each dataset')
    .action(async (flags: { format?: string; json?: boolean }) => {
      const format = formatOf(flags);
      const { DATASETS, dataCacheDir, datasetTasksDir } = await import('../../../tasks/datasets/catalog.js');
      const { readSource } = await import('../../../tasks/datasets/fetch.js');
      const rows = Object.entries(DATASETS).map(([name, entry]) => {
        const source = readSource(name);
        return { name, family: entry.family, commit: entry.commit, cached: source !== null, path: source ? datasetTasksDir(name) : null, files: source?.files ?? null, fetched_at: source?.fetched_at ?? null, archive_sha256: source?.archive_sha256 ?? null, description: entry.description };
      });
      if (format === 'json') {
        process.stdout.write(JSON.stringify({ cache: dataCacheDir(), datasets: rows }, null, 2) + '\n');
        return;
      }
      process.stdout.write(`cache: ${dataCacheDir()}\n`);
      for (const r of rows) {
        const state = r.cached ? `${r.files} files in ${r.path} (fetched ${r.fetched_at})` : `not fetched: aar data fetch ${r.name}`;
        process.stdout.write(`${r.name.padEnd(8)} ${r.family.padEnd(9)} ${r.commit.slice(0, 12)}  ${state}\n         ${r.description}\n`);
      }
    });
}
