import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import type { LlamaRuntime } from './llama-api.js';

/**
 * The local model's runtime, node-llama-cpp, is installed on first use (`aar models fetch`) into a cache of
 * its own, with the prebuilt binary of this machine's CPU alone: as a dependency of this package npm would
 * install its binaries for every GPU and CPU (677 MB on linux-x64, of which the 28 MB CPU one is used).
 */
export const LLAMA_RUNTIME_VERSION = '3.21.1';

/** node-llama-cpp's prebuilt CPU-only (gpu: false) binary package per platform and architecture. */
const CPU_BINARIES: Readonly<Record<string, string>> = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'linux-arm': 'linux-armv7l',
  'linux-riscv64': 'linux-riscv64',
  'darwin-x64': 'mac-x64',
  'win32-x64': 'win-x64',
  'win32-arm64': 'win-arm64',
};

/** The binary package for a platform, or undefined where node-llama-cpp ships no CPU-only build. */
export function cpuBinaryPackage(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const name = CPU_BINARIES[`${platform}-${arch}`];
  return name && `@node-llama-cpp/${name}`;
}

/** The runtime's folder: AAR_RUNTIME_CACHE, else $XDG_CACHE_HOME/aar/runtimes, else ~/.cache/aar/runtimes; one per version and platform. */
export function runtimeDir(): string {
  const base = process.env.AAR_RUNTIME_CACHE
    ? path.resolve(process.env.AAR_RUNTIME_CACHE)
    : path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'aar', 'runtimes');
  return path.join(base, `node-llama-cpp-${LLAMA_RUNTIME_VERSION}-${process.platform}-${process.arch}`);
}

const entryOf = (dir: string): string => path.join(dir, 'node_modules', 'node-llama-cpp', 'package.json');

/** Whether the runtime in `dir` is whole: node-llama-cpp at the pinned version and its CPU binary beside it. */
function installed(dir: string, binary: string): boolean {
  try {
    const version = (JSON.parse(readFileSync(entryOf(dir), 'utf8')) as { version?: string }).version;
    return version === LLAMA_RUNTIME_VERSION && existsSync(path.join(dir, 'node_modules', ...binary.split('/'), 'package.json'));
  } catch {
    return false;
  }
}

function unsupported(): Error {
  return new Error(`node-llama-cpp ${LLAMA_RUNTIME_VERSION} has no prebuilt CPU runtime for ${process.platform}-${process.arch}`);
}

export interface RuntimeOptions {
  /** Extra npm arguments (e.g. `--registry=URL`, `--offline`). */
  npmArgs?: string[];
  log?: (line: string) => void;
}

/**
 * Installs the runtime into runtimeDir() unless it is there and whole (npm, no install scripts: the binary
 * is prebuilt), and returns its folder. The install goes to a folder beside it, renamed into place when
 * whole, so an interrupted one leaves nothing half-made.
 */
export async function ensureLlamaRuntime(options: RuntimeOptions = {}): Promise<string> {
  const binary = cpuBinaryPackage();
  if (!binary) throw unsupported();
  const dir = runtimeDir();
  if (installed(dir, binary)) return dir;
  mkdirSync(path.dirname(dir), { recursive: true });
  const partial = mkdtempSync(`${dir}.partial-`);
  try {
    const manifest = { name: 'aar-llama-runtime', private: true, dependencies: { 'node-llama-cpp': LLAMA_RUNTIME_VERSION, [binary]: LLAMA_RUNTIME_VERSION } };
    writeFileSync(path.join(partial, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    options.log?.(`installing node-llama-cpp ${LLAMA_RUNTIME_VERSION} with ${binary} (npm) into ${dir}`);
    const args = ['install', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', ...(options.npmArgs ?? [])];
    const npm = await execa('npm', args, { cwd: partial, reject: false, all: true });
    if (npm.exitCode !== 0 || !installed(partial, binary)) throw new Error(`npm ${args.join(' ')} failed: ${(npm.all ?? '').trim().split('\n').slice(-3).join(' | ')}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
    return dir;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

let loading: Promise<LlamaRuntime> | undefined;

/** The installed runtime's module; not installed: an error naming the command that installs it. */
export function loadLlamaRuntime(): Promise<LlamaRuntime> {
  loading ??= (async () => {
    const binary = cpuBinaryPackage();
    if (!binary) throw unsupported();
    const dir = runtimeDir();
    if (!installed(dir, binary)) {
      throw new Error(`the local model's runtime (node-llama-cpp ${LLAMA_RUNTIME_VERSION}) is not installed in ${dir}: run \`aar models fetch smollm2\` (it installs it)`);
    }
    const main = path.join(dir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
    return (await import(pathToFileURL(main).href)) as LlamaRuntime;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
