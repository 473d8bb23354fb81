/**
 * bench:runner-startup: what starting the trial runner costs inside a trial container. Each probe runs in a
 * fresh container of the trial image (no network) and reads the container's own CPU counter (cgroup v1
 * cpuacct, as the container sees it) after the command; the same container with nothing run before the read
 * is the zero. Medians of `-- --n 10` containers each: Node alone (`node -e 0`), the `tools` bundle loaded
 * (`tools --list`, the code `tools --trial` starts with), and that plus the AAR oracle's bundle loaded as
 * a second process would (what a built-in agent's trial cost before the runner loaded it in-process).
 *
 *   npm run bench:runner-startup [-- --n 10]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { execa } from 'execa';
import { ensureAgentImage } from '../images/build.js';
import { packagePath } from '../paths.js';

const argv = process.argv.slice(2);
const n = Number(argv[argv.indexOf('--n') + 1] || 10);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const COUNTER = 'cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || sed -n "s/^usage_usec //p" /sys/fs/cgroup/cpu.stat | sed "s/$/000/"';

const image = await ensureAgentImage(null);
const oracle = readFileSync(packagePath('dist', 'agents', 'oracle.cjs')).toString('base64');
const probes: [string, string][] = [
  ['nothing (the zero: runc init, sh, the read)', ':'],
  ['node -e 0', 'node -e 0'],
  ['tools --list (the runner bundle loaded)', 'tools --list >/dev/null'],
  ['tools --list, then the oracle bundle as a second node', `tools --list >/dev/null; echo ${oracle} | base64 -d > /tmp/o.cjs; node -e "globalThis.__aarLoadingInProcess=1; require('/tmp/o.cjs')"`],
];
console.log(`trial image ${image}; ${n} containers per probe; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
let zero = 0;
for (const [name, command] of probes) {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const { stdout } = await execa('docker', ['run', '--rm', '--network', 'none', '--entrypoint', 'sh', image, '-c', `${command}; ${COUNTER}`]);
    ms.push(Number(stdout.trim().split('\n').at(-1)) / 1e6);
  }
  const m = median(ms);
  if (!zero) zero = m;
  console.log(`${name}: median ${m.toFixed(1)} ms of container CPU (${(m - zero).toFixed(1)} ms over the zero; min ${Math.min(...ms).toFixed(1)}, max ${Math.max(...ms).toFixed(1)})`);
}
