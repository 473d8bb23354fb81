/**
 * Faults of a Kubernetes cluster, each for real on the local cluster (images/k8s-up.sh): a pod evicted, without
 * its image, pending past its deadline, its node lost, the API server away for a while. Each ends the trial's
 * run with an error (the trial runner's infrastructure error, retried), never with a result that would be
 * scored; a run the outage did not touch ends normally. A container killed for memory at its own limit is the
 * agent's doing and comes back as its exit, as on Docker. Last, a job whose first trial
 * pod is evicted: retried, scored as the oracle always is, and no pod of it left.
 */
import { jest } from '@jest/globals';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { runJob } from '../../../../harness/jobs/job.js';
import { QuietReporter } from '../../../../harness/jobs/reporters.js';
import { ensureBaseImage } from '../../../../images/build.js';
import { loadJobResults } from '../../../../verifier/results.js';
import { REPO_ROOT, tempDir } from '../../../helpers/data.js';
import { writeJobConfig } from '../../../helpers/jobs.js';
import { work } from '../conformance.js';
import { clusterClient, clusterSettings, KUBECONFIG, noClusterReason, NODE_CONTAINERD, pauseComponent, podsNamed, resumeComponent, trialRig, untilFetched } from './cluster.js';

const WHY_NOT = await noClusterReason();
if (WHY_NOT) console.warn(`kubernetes fault tests skipped: ${WHY_NOT}`);
const image = WHY_NOT ? '' : await ensureBaseImage();
const PREFIX = `aar-test-fault${process.pid}-`;
jest.setTimeout(300_000);

/** Waits until the cluster's node is ready again (after a test stopped its kubelet). */
async function nodeReadyAgain(): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const nodes = await clusterClient().listNode().catch(() => undefined);
    if (nodes?.items.every((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the node did not come back');
}

const sleeper = () => work({ command: ['sleep', '100'], timeoutMs: 120_000 });

(WHY_NOT ? describe.skip : describe)('faults of a Kubernetes cluster end the run as infrastructure errors', () => {
  let rig: Awaited<ReturnType<typeof trialRig>>;
  beforeAll(async () => {
    rig = await trialRig(clusterSettings(PREFIX, { image_pull_deadline_s: 2, api_timeout_s: 4, node_lost_grace_s: 0 }), `aar-test-fault-${process.pid}`, image);
  });
  afterAll(async () => {
    await resumeComponent('kubelet').catch(() => {});
    await resumeComponent('kube-apiserver').catch(() => {});
    await rig?.close();
    expect(await podsNamed(PREFIX)).toEqual([]);
  });

  test('a pod evicted (the eviction API) while the agent runs', async () => {
    const { sandbox, trial, done } = await rig.start('evicted');
    try {
      const running = sandbox.run(sleeper());
      await untilFetched(trial.handover);
      await clusterClient().createNamespacedPodEviction({ name: sandbox.id, namespace: 'default', body: { metadata: { name: sandbox.id, namespace: 'default' } } });
      await expect(running).rejects.toThrow(/deleted.*evicted/);
    } finally {
      await sandbox.remove();
      done();
    }
  });

  test('a container killed for memory at its own limit before its result: the agent did it, so it is scored (as on Docker), never lost', async () => {
    const { sandbox, done } = await rig.start('oom');
    try {
      // The runner is made the kernel's first choice, then the agent's memory runs out (256 MB limit).
      const hog = `echo 1000 > /proc/$PPID/oom_score_adj; exec python3 -c "import time; b = bytearray(600 * 2**20); time.sleep(60)"`;
      const result = await sandbox.run(work({ command: ['sh', '-c', hog], timeoutMs: 90_000 }));
      // Scored as the agent's exit (SIGKILL), with no answer; marked oom_killed when the runtime says OOMKilled.
      expect(result).toMatchObject({ exitCode: 137, timedOut: false, files: {} });
      expect([undefined, true]).toContain(result.fate?.oomAtOwnLimit);
    } finally {
      await sandbox.remove();
      done();
    }
  });

  test('an image that cannot be pulled (ImagePullBackOff), past image_pull_deadline_s', async () => {
    // A job that leaves images to the nodes (no node_containerd): its relay runs from an image the node has.
    const pulling = await trialRig(clusterSettings(`${PREFIX}i-`, { node_containerd: undefined, image_pull_deadline_s: 2 }), `aar-test-fault-i-${process.pid}`, image);
    try {
      const warm = await pulling.start('warm');
      await warm.sandbox.remove();
      warm.done();
      const { sandbox, done } = await pulling.start('no-image', { image: '127.0.0.1:9/aar-test-missing:1', network: 'bridge' });
      try {
        await expect(sandbox.run(sleeper())).rejects.toThrow(/does not come.*(ErrImagePull|ImagePullBackOff)/);
      } finally {
        await sandbox.remove();
        done();
      }
    } finally {
      await pulling.close();
    }
  });

  test('a pod that no node takes, pending past pending_deadline_s', async () => {
    const pending = await trialRig(
      clusterSettings(`${PREFIX}p-`, { node_selector: { 'aar-test/no-such-pool': 'none' }, pending_deadline_s: 3 }),
      `aar-test-fault-p-${process.pid}`,
      image,
    );
    try {
      const { sandbox, done } = await pending.start('pending');
      try {
        await expect(sandbox.run(sleeper())).rejects.toThrow(/pending for 3 s.*not scheduled/);
      } finally {
        await sandbox.remove();
        done();
      }
    } finally {
      await pending.close();
    }
  });

  test('the node lost while the agent runs (its kubelet stops answering)', async () => {
    const { sandbox, trial, done } = await rig.start('node-lost');
    try {
      const running = sandbox.run(sleeper());
      await untilFetched(trial.handover);
      await pauseComponent('kubelet');
      try {
        await expect(running).rejects.toThrow(/node .* was lost while the trial ran/);
      } finally {
        await resumeComponent('kubelet');
      }
      await nodeReadyAgain();
    } finally {
      await sandbox.remove();
      done();
    }
  });

  test('the API server away for a while: a run under way ends with its result; a new pod meanwhile is refused in time; it answers again', async () => {
    const { sandbox, trial, done } = await rig.start('outage');
    try {
      const running = sandbox.run(work({ command: ['sh', '-c', 'sleep 3; echo through; exit 0'] }));
      await untilFetched(trial.handover);
      // Away for about 8 s (under the local cluster's node-monitor grace of 20 s, so its node stays ready).
      await pauseComponent('kube-apiserver');
      try {
        expect(await rig.provider.answers()).toBe(false);
        const refused = Date.now();
        await expect(rig.start('during-outage')).rejects.toThrow(/did not answer within 4 s/);
        expect(Date.now() - refused).toBeLessThan(15_000);
      } finally {
        await resumeComponent('kube-apiserver');
      }
      const result = await running;
      expect([result.exitCode, result.stdout.toString()]).toEqual([0, 'through\n']);
      const back = Date.now() + 60_000;
      while (!(await rig.provider.answers()) && Date.now() < back) await new Promise((r) => setTimeout(r, 500));
      expect(await rig.provider.answers()).toBe(true);
    } finally {
      await sandbox.remove();
      done();
    }
  });
});

(WHY_NOT ? describe.skip : describe)('a job on Kubernetes whose first trial pod is evicted', () => {
  const tmp = tempDir('aar-k8s-fault-job-');
  afterAll(() => tmp.cleanup());

  test('retries the trial, scores it as the oracle always scores, and leaves no pod', async () => {
    const prefix = `aar-test-fjob${process.pid}-`;
    const config = writeJobConfig(
      tmp.dir,
      {
        name: 'k8s-evicted',
        environment: 'kubernetes',
        kubernetes: { kubeconfig: KUBECONFIG, node_containerd: NODE_CONTAINERD, request_fraction: 0.02, name_prefix: prefix },
        tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-dag/medium/sample_002'] },
        tools: { mode: 'replay', store: path.join(REPO_ROOT, 'tools', 'stores', 'examples') },
        agents: [{ name: 'oracle' }],
        infra_retries: 2,
      },
      'k8s-evicted.yaml',
    );
    // The first trial pod is evicted once, as soon as it is seen (the oracle's run is quicker than a poll).
    let evicted = '';
    const watcher = setInterval(() => {
      if (evicted) return;
      void clusterClient()
        .listNamespacedPod({ namespace: 'default' })
        .then(async (list) => {
          const pod = list.items.find((p) => p.metadata!.name!.startsWith(`${prefix}trial-`));
          if (!pod || evicted) return;
          evicted = pod.metadata!.name!;
          await clusterClient().createNamespacedPodEviction({ name: evicted, namespace: 'default', body: { metadata: { name: evicted, namespace: 'default' } } });
        })
        .catch(() => {});
    }, 100);
    try {
      const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
      const [result] = loadJobResults(summary.jobDir);
      expect(evicted).not.toBe('');
      expect(result.record.status).toBe('completed');
      const record = JSON.parse(readFileSync(path.join(result.dir, 'trial.json'), 'utf8')) as { infra_retries: number; infra_retry_errors?: string[] };
      expect(record.infra_retries).toBe(1);
      expect(record.infra_retry_errors?.[0]).toMatch(/deleted.*evicted/);
      expect(result.score).toMatchObject({ fa: 1 });
      expect(await podsNamed(prefix)).toEqual([]);
    } finally {
      clearInterval(watcher);
    }
  });
});
