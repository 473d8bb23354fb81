/**
 * bench:kubernetes-oracle: the oracle on a seeded sample of the released legs (`--legs 40`), on their
 * synthetic world, once on Docker and once on the local Kubernetes cluster (images/k8s-up.sh): whether every
 * leg scores the same in both, how many pods the Kubernetes job left (goal 0), and each run's time.
 *
 *   npm run bench:kubernetes-oracle [-- --legs 40] [-- --concurrency 4] [-- --data DIR]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { runJob } from '../harness/jobs/job.js';
import { QuietReporter } from '../harness/jobs/reporters.js';
import { aarDataDir } from '../paths.js';
import { loadJobResults } from '../verifier/results.js';
import { synthesizeSweepWorld } from './oracle-sweep.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const legs = Number(flag('--legs') ?? 40);
const concurrency = Number(flag('--concurrency') ?? 4);
const dataDir = flag('--data') ?? aarDataDir();
const kubeconfig = process.env.AAR_K8S_KUBECONFIG ?? '/var/lib/aar-k8s/kubeconfig';
const containerd = process.env.AAR_K8S_CONTAINERD ?? '/run/aar-k8s/containerd.sock';
const prefix = `aar-bench-${process.pid}-`;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-k8s-oracle-'));

function scores(jobDir: string): Map<string, string> {
  return new Map(
    loadJobResults(jobDir).map((r) => {
      const { status, fa, agent_answer, rcr, pvr, total_tool_calls, right_tool_calls } = r.score as Record<string, unknown>;
      return [r.record.leg.id, JSON.stringify({ trial: r.record.status, status, fa, agent_answer, rcr, pvr, total_tool_calls, right_tool_calls })];
    }),
  );
}

try {
  const { worldDir, line } = await synthesizeSweepWorld(tmp, dataDir);
  console.log(line);
  const base = {
    output: path.join(tmp, 'jobs'),
    tasks: { path: dataDir, sample: { n: legs, seed: 1 } },
    agents: [{ name: 'oracle' }],
    concurrency,
    timeout_s: 300,
    infra_retries: 1,
    resources: { memory_mb: 1024, cpus: 1, pids: 512 },
    tools: { mode: 'replay', store: worldDir },
  };
  const run = async (name: string, extra: Record<string, unknown>) => {
    const file = path.join(tmp, `${name}.yaml`);
    writeFileSync(file, stringify({ name, ...base, ...extra }));
    const started = Date.now();
    const summary = await runJob({ configPath: file, reporter: new QuietReporter() });
    return { summary, seconds: (Date.now() - started) / 1000, load: os.loadavg()[0] };
  };
  const docker = await run('oracle-docker', {});
  const k8s = await run('oracle-kubernetes', { environment: 'kubernetes', kubernetes: { kubeconfig, node_containerd: containerd, request_fraction: 0.05, name_prefix: prefix } });
  const a = scores(docker.summary.jobDir);
  const b = scores(k8s.summary.jobDir);
  const differ = [...a.keys()].filter((leg) => a.get(leg) !== b.get(leg));
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const left = (await kc.makeApiClient(CoreV1Api).listPodForAllNamespaces()).items.filter((p) => p.metadata?.name?.startsWith(prefix)).map((p) => p.metadata!.name);
  const fa = (m: Map<string, string>) => [...m.values()].filter((v) => JSON.parse(v).fa === 1).length;
  console.log('\n| environment | legs scored | FA = 1 | infra errors | wall s | load (1 min) at end |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| docker | ${a.size}/${legs} | ${fa(a)} | ${docker.summary.infraErrors} | ${docker.seconds.toFixed(1)} | ${docker.load.toFixed(2)} |`);
  console.log(`| kubernetes | ${b.size}/${legs} | ${fa(b)} | ${k8s.summary.infraErrors} | ${k8s.seconds.toFixed(1)} | ${k8s.load.toFixed(2)} |`);
  console.log(`\nlegs scored differently: ${differ.length}${differ.length ? ` (${differ.slice(0, 10).join(', ')})` : ''}; pods left by the kubernetes job: ${left.length}`);
  if (differ.length || left.length || a.size !== legs || b.size !== legs) process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
