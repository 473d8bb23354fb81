/**
 * The Kubernetes environment's pods as the API server receives them, and how a pod's status is read as an
 * infrastructure failure. No cluster needed: the manifests and statuses are plain objects (the cluster tests
 * run them for real).
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { guardScript, harnessLabelsOf, k8sLabels, labelValue, selectorOf, trialPod, PIDS_ANNOTATION } from '../../../../harness/environments/kubernetes/pods.js';
import { podFailure, trialEnded, type PodTimes } from '../../../../harness/environments/kubernetes/pod-fate.js';
import { DEFAULT_KUBERNETES_SETTINGS, kubernetesSettingsSchema } from '../../../../harness/environments/kubernetes/settings.js';
import type { EnvironmentSpec, WorkHandover } from '../../../../harness/environments/types.js';
import { parseJobConfig } from '../../../../harness/config/load.js';
import { environmentPlanLine } from '../../../../harness/environments/registry.js';
import { z } from 'zod';

const spec: EnvironmentSpec = {
  image: 'aar-base:abc',
  labels: { 'aar-harness': '1', 'aar.job_key': '0123abcd', 'aar.job_dir': '/work/jobs/my job', 'aar.trial': 'oracle__leg/1' },
  env: { AAR_TRIAL_TOKEN: 'tok' },
  resources: { memoryMb: 2048, cpus: 1.5, pids: 256 },
  gatewaySocketDir: '/tmp/aar-gw-1',
  gatewaySocketName: 'gateway.sock',
  gatewayPort: 8900,
  network: 'none',
  handover: {} as WorkHandover,
};

describe('a trial pod', () => {
  const pod = trialPod({ name: 'aar-trial-1', spec, image: 'aar-base:abc', guardImage: 'aar-k8s-guard:def', relay: { ip: '10.213.0.9', port: 8900 }, settings: DEFAULT_KUBERNETES_SETTINGS });
  const trial = pod.spec!.containers[0];

  test("has the docker environment's limits, capabilities and no privilege, no token, no service links", () => {
    expect(trial.resources!.limits).toEqual({ cpu: '1.5', memory: '2048Mi' });
    expect(trial.resources!.requests).toEqual({ cpu: '1500m', memory: '2048Mi' });
    expect(trial.securityContext).toEqual({ privileged: false, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'] } });
    expect(pod.spec).toMatchObject({ automountServiceAccountToken: false, enableServiceLinks: false, hostNetwork: false, hostPID: false, hostIPC: false, restartPolicy: 'Never' });
    expect(pod.metadata!.annotations![PIDS_ANNOTATION]).toBe('256');
    expect(trial.command).toEqual(['tools', '--trial']);
    expect(trial.env).toContainEqual({ name: 'AAR_GATEWAY_RELAY', value: '10.213.0.9:8900' });
  });

  test('the guard goes first with NET_ADMIN and lets through the relay alone; with network: bridge there is none', () => {
    const guard = pod.spec!.initContainers![0];
    expect(guard.securityContext!.capabilities).toEqual({ drop: ['ALL'], add: ['NET_ADMIN', 'NET_RAW'] });
    const script = guard.command![2];
    expect(script).toContain('iptables -w 5 -P OUTPUT DROP');
    expect(script).toContain('-A OUTPUT -d 10.213.0.9/32 -p tcp --dport 8900 -j ACCEPT');
    expect(script).toBe(guardScript('10.213.0.9', 8900));
    const open = trialPod({ name: 'x', spec: { ...spec, network: 'bridge' }, image: 'i', relay: { ip: '10.0.0.1', port: 8900 }, settings: DEFAULT_KUBERNETES_SETTINGS });
    expect(open.spec!.initContainers).toBeUndefined();
    expect(() => trialPod({ name: 'x', spec, image: 'i', relay: { ip: '10.0.0.1', port: 8900 }, settings: DEFAULT_KUBERNETES_SETTINGS })).toThrow(/guard image/);
  });

  test('labels Kubernetes cannot hold are hashed, the same way every time, and the originals kept', () => {
    expect(labelValue('0123abcd')).toBe('0123abcd');
    expect(labelValue('/work/jobs/my job')).toMatch(/^h-[0-9a-f]{40}$/);
    expect(k8sLabels(spec.labels)['aar.job_dir']).toBe(labelValue('/work/jobs/my job'));
    expect(pod.metadata!.labels).toEqual(k8sLabels(spec.labels));
    expect(harnessLabelsOf(pod)).toEqual(spec.labels);
    expect(selectorOf({ 'aar.trial': 'oracle__leg/1' })).toBe(`aar.trial=${labelValue('oracle__leg/1')}`);
  });

  test('node selector, tolerations, service account and pull secrets come from the settings', () => {
    const settings = kubernetesSettingsSchema(z).parse({
      node_selector: { pool: 'trials' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'aar', effect: 'NoSchedule' }],
      service_account: 'aar-trials',
      image_pull_secrets: ['regcred'],
    });
    const p = trialPod({ name: 'x', spec, image: 'i', guardImage: 'g', relay: { ip: '10.0.0.1', port: 8900 }, settings });
    expect(p.spec).toMatchObject({ nodeSelector: { pool: 'trials' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'aar', effect: 'NoSchedule' }], serviceAccountName: 'aar-trials', imagePullSecrets: [{ name: 'regcred' }] });
  });

  test('settings come from the job config under kubernetes:, with one-line errors', () => {
    const config = parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: oracle\nenvironment: kubernetes\nkubernetes:\n  namespace: aar\n  node_containerd: /run/aar-k8s/containerd.sock\n');
    expect((config as Record<string, unknown>).kubernetes).toMatchObject({ namespace: 'aar', node_containerd: '/run/aar-k8s/containerd.sock', pending_deadline_s: 300 });
    expect(() => parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: oracle\nkubernetes:\n  namespace: Not_A_Name\n')).toThrow(/job\.yaml:6:14: kubernetes\.namespace: a namespace name/);
  });

  test('aar plan says how images reach the nodes', () => {
    const plan = (yaml: string) => environmentPlanLine('kubernetes', parseJobConfig('job.yaml', `tasks:\n  path: legs\nagents:\n  - name: oracle\nenvironment: kubernetes\n${yaml}`) as never);
    expect(plan('kubernetes:\n  node_containerd: /run/aar-k8s/containerd.sock\n')).toBe("kubernetes: images loaded into the node's containerd (/run/aar-k8s/containerd.sock) from this machine's Docker engine");
    expect(plan('kubernetes:\n  registry: 127.0.0.1:5000\n')).toBe('kubernetes: images pushed to the registry 127.0.0.1:5000, which the nodes pull from');
    expect(plan('')).toMatch(/^kubernetes: images expected on the nodes already/);
    expect(environmentPlanLine('docker')).toBe('docker');
  });
});

describe("a pod's status as an infrastructure failure", () => {
  const limits = { pendingMs: 60_000, imagePullMs: 10_000, nodeLostMs: 0 };
  const times = (): PodTimes => ({ createdAt: 0, imageFailingSince: null, nodeDownSince: null });
  const running = (over: Partial<V1Pod['status']> = {}, trialState: object = { running: {} }): V1Pod => ({
    spec: { nodeName: 'n1', containers: [] },
    status: { phase: 'Running', containerStatuses: [{ name: 'trial', image: 'i', imageID: '', ready: true, restartCount: 0, state: trialState }], ...over },
  });
  const ready = (status: string): V1Node => ({ status: { conditions: [{ type: 'Ready', status }] } });

  test('a running pod on a ready node is fine', () => {
    expect(podFailure(running(), ready('True'), 1000, times(), limits)).toBeNull();
  });

  test('evicted, deleted, a lost node; a trial container that ended by itself is not a failure of the cluster', () => {
    expect(podFailure(running({ phase: 'Failed', reason: 'Evicted', message: 'low on memory' }), ready('True'), 1000, times(), limits)).toMatch(/evicted on node n1: low on memory/);
    const oom = running({ phase: 'Failed' }, { terminated: { exitCode: 137, reason: 'OOMKilled' } });
    expect(podFailure(oom, ready('True'), 1000, times(), limits)).toBeNull();
    expect(trialEnded(oom)).toEqual({ exitCode: 137, reason: 'OOMKilled' });
    expect(trialEnded(running())).toBeNull();
    expect(podFailure({ spec: { containers: [] }, status: { phase: 'Failed', reason: 'NodeAffinity', message: 'no' } }, undefined, 1000, times(), limits)).toMatch(/failed: NodeAffinity/);
    expect(podFailure({ ...running(), metadata: { deletionTimestamp: new Date() } }, ready('True'), 1000, times(), limits)).toMatch(/deleted/);
    expect(podFailure(running(), ready('Unknown'), 1000, times(), limits)).toMatch(/node n1 was lost/);
  });

  test('an image that does not come fails after its grace; a pod pending past the deadline fails', () => {
    const pulling = running({ phase: 'Pending' }, { waiting: { reason: 'ImagePullBackOff', message: 'back-off' } });
    const t = times();
    expect(podFailure(pulling, undefined, 1000, t, limits)).toBeNull();
    expect(podFailure(pulling, undefined, 12_000, t, limits)).toMatch(/does not come.*ImagePullBackOff/);
    const unscheduled: V1Pod = { spec: { containers: [] }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', message: '0/1 nodes are available' }] } };
    expect(podFailure(unscheduled, undefined, 30_000, times(), limits)).toBeNull();
    expect(podFailure(unscheduled, undefined, 61_000, times(), limits)).toMatch(/pending for 60 s.*0\/1 nodes are available/);
  });
});
