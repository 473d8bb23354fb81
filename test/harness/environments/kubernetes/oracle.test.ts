/**
 * The oracle over the example legs on the local Kubernetes cluster scores as it does in Docker, leg by leg,
 * and the job leaves no pod. (bench/kubernetes-oracle.ts does the same on a sample of the real legs.)
 */
import { jest } from '@jest/globals';
import path from 'node:path';
import { runJob } from '../../../../harness/jobs/job.js';
import { QuietReporter } from '../../../../harness/jobs/reporters.js';
import { loadJobResults } from '../../../../verifier/results.js';
import { tempDir } from '../../../helpers/data.js';
import { writeJobConfig } from '../../../helpers/jobs.js';
import { KUBECONFIG, noClusterReason, NODE_CONTAINERD, podsNamed } from './cluster.js';

const WHY_NOT = await noClusterReason();
if (WHY_NOT) console.warn(`kubernetes oracle test skipped: ${WHY_NOT}`);
jest.setTimeout(600_000);

/** What a trial scored, without its timings: leg -> score fields. */
function scoresOf(jobDir: string): Record<string, unknown> {
  return Object.fromEntries(
    loadJobResults(jobDir).map((r) => {
      const { status, fa, agent_answer, rcr, pvr, total_tool_calls, right_tool_calls } = r.score as Record<string, unknown>;
      return [r.record.leg.id, { trial: r.record.status, status, fa, agent_answer, rcr, pvr, total_tool_calls, right_tool_calls }];
    }),
  );
}

(WHY_NOT ? describe.skip : describe)('the oracle on Kubernetes', () => {
  const tmp = tempDir('aar-k8s-oracle-');
  afterAll(() => tmp.cleanup());

  test('scores every example leg as in Docker, and leaves no pod', async () => {
    const prefix = `aar-test-oracle${process.pid}-`;
    const onDocker = await runJob({ configPath: writeJobConfig(tmp.dir, { name: 'oracle-docker' }, 'docker.yaml'), reporter: new QuietReporter() });
    const onKubernetes = await runJob({
      configPath: writeJobConfig(
        tmp.dir,
        { name: 'oracle-k8s', environment: 'kubernetes', kubernetes: { kubeconfig: KUBECONFIG, node_containerd: NODE_CONTAINERD, request_fraction: 0.02, name_prefix: prefix } },
        'k8s.yaml',
      ),
      reporter: new QuietReporter(),
    });
    const docker = scoresOf(onDocker.jobDir);
    expect(Object.keys(docker).length).toBe(onDocker.planned);
    expect(Object.values(docker).every((s) => (s as { fa: number }).fa === 1)).toBe(true);
    expect(scoresOf(onKubernetes.jobDir)).toEqual(docker);
    expect(loadJobResults(onKubernetes.jobDir).every((r) => r.record.environment?.node)).toBe(true);
    expect(await podsNamed(prefix)).toEqual([]);
    expect(path.basename(onKubernetes.jobDir)).toBe('oracle-k8s');
  });
});
