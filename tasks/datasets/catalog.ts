import os from 'node:os';
import path from 'node:path';

/**
 * Released task sets known by name (`aar data fetch aar`, `tasks: { dataset: aar }` in a job config): where
 * each comes from, at which commit, and what its files must hash to. One entry per dataset.
 */
export interface DatasetEntry {
  /** The task family its files are for. */
  family: string;
  /** The authors' repository, and the commit the archive is taken at (never a branch: it would move). */
  repository: string;
  commit: string;
  /** The archive (a .tar.gz of the repository at `commit`); AAR_DATA_URL or `--url` give another place. */
  url: string;
  /** The folder inside the archive holding the task files, under its single top folder. */
  folder: string;
  /** Files beside the tasks that are kept with them (the licence). */
  keep: readonly string[];
  /**
   * sha256 of the manifest of the task files: one line `<sha256 of the file>  <path under folder>` per file,
   * paths sorted by their bytes, each line ending in a newline. It pins the contents, whatever compression
   * the archive's server applies (GitHub's archives are made on demand and their bytes are not promised).
   */
  contentSha256: string;
  files: number;
  license: string;
  description: string;
}

const AAR_COMMIT = '78eff566ae3d70a317148ce9b5d124597375222d';

export const DATASETS: Readonly<Record<string, DatasetEntry>> = {
  aar: {
    family: 'aar',
    repository: 'https://github.com/minnesotanlp/the-amazing-agent-race',
    commit: AAR_COMMIT,
    url: `https://codeload.github.com/minnesotanlp/the-amazing-agent-race/tar.gz/${AAR_COMMIT}`,
    folder: 'data',
    keep: ['LICENSE.md'],
    // The 1,400 legs of data/ at that commit (unchanged since adec7540, 2026-03-31): aar-linear and aar-dag,
    // easy to extreme, as the paper's evaluation used them.
    contentSha256: 'aa33766dc8e1862a9b243799dcf50656a2b0780ba0ffad03f24c94a355e02be6',
    files: 1400,
    license: 'MIT',
    description: 'The Amazing Agent Race: 1,400 legs (aar-linear 800, aar-dag 600), the released data of the paper',
  },
};

export const datasetNames = (): string => Object.keys(DATASETS).join(', ');

export function datasetEntry(name: string): DatasetEntry {
  const entry = DATASETS[name];
  if (!entry) throw new Error(`unknown dataset '${name}'; known: ${datasetNames()}`);
  return entry;
}

/** The cache: AAR_DATA_CACHE, else $XDG_CACHE_HOME/aar/data, else ~/.cache/aar/data. */
export function dataCacheDir(): string {
  if (process.env.AAR_DATA_CACHE) return path.resolve(process.env.AAR_DATA_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aar', 'data');
}

/** A dataset's folder in the cache, by name and commit: a new pin is a new folder, the old one stays until removed. */
export const datasetDir = (name: string, cacheDir = dataCacheDir()): string => path.join(cacheDir, `${name}@${datasetEntry(name).commit.slice(0, 12)}`);

/** The folder holding the task files of a fetched dataset (what `tasks.path` would name). */
export const datasetTasksDir = (name: string, cacheDir = dataCacheDir()): string => path.join(datasetDir(name, cacheDir), datasetEntry(name).folder);

/** What a fetch leaves beside the files: where they came from and what they hashed to. */
export const SOURCE_FILE = 'source.json';
