/**
 * Host memory while copying a 200 MB /app/answer.txt out of a real container (issue 9 item 4): with the
 * bound, the host holds ANSWER_LIMIT_BYTES of it. Run: npm run build && node --expose-gc dist/bench/copy-out.js [image]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExecSandbox } from '../harness/environments/docker/exec-sandbox.js';
import { docker } from '../common/docker.js';
import { ANSWER_LIMIT_BYTES } from '../trial/copy-limits.js';

const image = process.argv[2] ?? (await docker().listImages()).flatMap((i) => i.RepoTags ?? []).find((t) => t.startsWith('aar-base:'));
if (!image) {
  console.error('no aar-base image: build one with `aar images build`, or pass an image');
  process.exit(1);
}
const socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-copy-out-'));
const env = await ExecSandbox.start({
  image,
  labels: { 'aar-harness': '1', 'aar.job': 'bench-copy-out' },
  env: {},
  resources: { memoryMb: 1024, cpus: 1, pids: 256 },
  gatewaySocketDir: socketDir,
  gatewaySocketName: 'gw.sock',
  gatewayPort: 8900,
  network: 'none',
});
try {
  await env.exec(['sh', '-c', "printf 7 > /app/answer.txt; head -c 200000000 /dev/zero | tr '\\0' ' ' >> /app/answer.txt"]);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  let cut: { size: number; kept: number } | undefined;
  const answer = await env.getFile('/app/answer.txt', { maxBytes: ANSWER_LIMIT_BYTES, onCut: (c) => (cut = c) });
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
  console.log(`200 MB answer.txt: ${answer?.length} bytes kept of ${cut?.size}; host RSS ${mb(before)} before, ${mb(peak)} at peak; ${ms.toFixed(0)} ms`);
} finally {
  await env.remove();
  rmSync(socketDir, { recursive: true, force: true });
}
