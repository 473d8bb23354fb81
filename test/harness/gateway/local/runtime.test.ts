/**
 * The local model's runtime (node-llama-cpp) is no dependency of the package: `aar models fetch` installs it
 * with npm into a cache of its own, with this machine's CPU binary only. Not installed, loading it is one line
 * naming the command; an install that fails leaves nothing half-made.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { cpuBinaryPackage, ensureLlamaRuntime, loadLlamaRuntime, LLAMA_RUNTIME_VERSION, runtimeDir } from '../../../../harness/gateway/local/runtime.js';
import { smolLM2 } from '../../../helpers/local-model.js';
import { tempDir } from '../../../helpers/data.js';

/** Runs `work` with AAR_RUNTIME_CACHE set to `dir`, then puts it back. */
async function withCache<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.AAR_RUNTIME_CACHE;
  process.env.AAR_RUNTIME_CACHE = dir;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.AAR_RUNTIME_CACHE;
    else process.env.AAR_RUNTIME_CACHE = before;
  }
}

describe("the local model's runtime", () => {
  test("the CPU-only binary package of node-llama-cpp per platform; none where it ships none", () => {
    expect(cpuBinaryPackage('linux', 'x64')).toBe('@node-llama-cpp/linux-x64');
    expect(cpuBinaryPackage('linux', 'arm64')).toBe('@node-llama-cpp/linux-arm64');
    expect(cpuBinaryPackage('win32', 'x64')).toBe('@node-llama-cpp/win-x64');
    expect(cpuBinaryPackage('darwin', 'arm64')).toBeUndefined();
    expect(path.basename(runtimeDir())).toBe(`node-llama-cpp-${LLAMA_RUNTIME_VERSION}-${process.platform}-${process.arch}`);
  });

  test('not installed: loading it is one line naming the command that installs it; a failed install leaves nothing', async () => {
    const tmp = tempDir('aar-runtime-');
    try {
      await withCache(tmp.dir, async () => {
        await expect(loadLlamaRuntime()).rejects.toThrow(new Error(`the local model's runtime (node-llama-cpp ${LLAMA_RUNTIME_VERSION}) is not installed in ${runtimeDir()}: run \`aar models fetch smollm2\` (it installs it)`));
        // A registry that does not answer (a closed port on loopback).
        const failed = ensureLlamaRuntime({ npmArgs: ['--registry=http://127.0.0.1:9/', '--prefer-online', '--fetch-retries=0', '--cache', path.join(tmp.dir, 'npm-cache')] });
        await expect(failed).rejects.toThrow(/^npm install --omit=optional --ignore-scripts .* failed: /);
        expect(readdirSync(tmp.dir).filter((f) => f !== 'npm-cache')).toEqual([]);
      });
    } finally {
      tmp.cleanup();
    }
  }, 120_000);

  test('installed (as the local-model tests and `aar models fetch` leave it): found again without npm, and it loads', async () => {
    await smolLM2();
    const dir = runtimeDir();
    const started = Date.now();
    expect(await ensureLlamaRuntime()).toBe(dir);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(existsSync(path.join(dir, 'node_modules', ...cpuBinaryPackage()!.split('/'), 'package.json'))).toBe(true);
    // Only this CPU's binary: none of the GPU builds npm would bring as node-llama-cpp's optional dependencies.
    expect(readdirSync(path.join(dir, 'node_modules', '@node-llama-cpp'))).toEqual([cpuBinaryPackage()!.split('/')[1]]);
    const runtime = await loadLlamaRuntime();
    expect(typeof runtime.getLlama).toBe('function');
  }, 600_000);
});
