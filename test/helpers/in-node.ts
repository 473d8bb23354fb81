import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The worker imports the built module and calls one of its exports (a CommonJS eval script may import()).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.url)
  .then((m) => m[workerData.name](...workerData.args))
  .then((value) => parentPort.postMessage({ value }), (e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

/**
 * Calls `name(...args)` of a source module in a worker thread, on its build in dist/ (`npm test` builds
 * first, so run `npm run build` before calling jest directly). For heavy work only: Jest runs each test file in a vm context where every global lookup
 * (BigInt, Math, Array, ...) goes through the sandbox and costs several times more; a worker is a plain
 * Node context. Arguments and the result cross by structured clone (bigint, Map and plain data are fine).
 * `sourceUrl` is the module's URL as the test would import it, e.g. new URL('../../tasks/validate.js', import.meta.url).
 */
export async function callInNode<T>(sourceUrl: URL, name: string, ...args: unknown[]): Promise<T> {
  const relative = path.relative(ROOT, fileURLToPath(sourceUrl));
  const built = path.join(ROOT, 'dist', relative);
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build (npm test does)`);
  const worker = new Worker(WORKER, { eval: true, workerData: { url: `file://${built}`, name, args } });
  try {
    const reply = await new Promise<{ value?: T; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`worker exited with code ${code} before answering`)));
    });
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.value as T;
  } finally {
    await worker.terminate();
  }
}
