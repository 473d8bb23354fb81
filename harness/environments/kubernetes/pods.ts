import { createHash } from 'node:crypto';
import type { V1Pod, V1Toleration } from '@kubernetes/client-node';
import type { EnvironmentSpec } from '../types.js';
import type { KubernetesSettings } from './settings.js';

/** Capabilities a trial keeps: the docker environment's set (container.ts), nothing for the network or the system. */
const KEEP_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'];
/** The harness's labels as they were (Kubernetes label values cannot hold paths). */
export const LABELS_ANNOTATION = 'aar-harness/labels';
/** The trial's process limit: Kubernetes has no pod field for it; a node's runtime may apply it (images/k8s-up.sh's does). */
export const PIDS_ANNOTATION = 'aar-harness/pids-limit';
export const ROLE_LABEL = 'aar.role';
const SOCKET_MOUNT = '/run/aar';

const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** A label value as Kubernetes takes it: the value itself when valid, else a hash of it (the same value always gives the same hash, so selectors still match). */
export const labelValue = (value: string): string => (LABEL_VALUE.test(value) ? value : `h-${createHash('sha256').update(value).digest('hex').slice(0, 40)}`);

export const k8sLabels = (labels: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, labelValue(v)]));

/** A label selector matching pods that carry all these labels. */
export const selectorOf = (labels: Record<string, string>): string =>
  Object.entries(k8sLabels(labels))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** The labels a pod was given by the harness (its annotation), else its Kubernetes labels. */
export function harnessLabelsOf(pod: V1Pod): Record<string, string> {
  const kept = pod.metadata?.annotations?.[LABELS_ANNOTATION];
  if (kept) {
    try {
      return JSON.parse(kept) as Record<string, string>;
    } catch {
      // a pod someone edited: its labels are what there is
    }
  }
  return pod.metadata?.labels ?? {};
}

/**
 * The guard: the first container of a trial pod, the only one with NET_ADMIN, which closes the pod's network
 * before the agent's container starts. The pod keeps one route, to the gateway's relay (by the default
 * gateway when the relay is not on the pod's own link); its default routes go, so there is no route out.
 * Then iptables: the pod sends to, and takes from, nothing but the relay (one address, one port) and its
 * own loopback, over IPv4 and IPv6. Whatever else the agent tries fails in its own pod (no route, or
 * operation not permitted), so nothing leaves it. The agent's container has no NET_ADMIN or NET_RAW and
 * cannot undo it.
 */
export function guardScript(relayIp: string, port: number): string {
  const v4 = [
    '-P INPUT DROP',
    '-P OUTPUT DROP',
    '-P FORWARD DROP',
    '-A INPUT -i lo -j ACCEPT',
    '-A OUTPUT -o lo -j ACCEPT',
    `-A INPUT -s ${relayIp}/32 -p tcp --sport ${port} -j ACCEPT`,
    `-A OUTPUT -d ${relayIp}/32 -p tcp --dport ${port} -j ACCEPT`,
  ];
  const v6 = ['-P INPUT DROP', '-P OUTPUT DROP', '-P FORWARD DROP', '-A INPUT -i lo -j ACCEPT', '-A OUTPUT -o lo -j ACCEPT'];
  const routes = [
    `gw=$(ip -4 route show default | awk '{print $3; exit}')`,
    `if ip -4 route get ${relayIp} | grep -q ' via ' && [ -n "$gw" ]; then ip -4 route replace ${relayIp}/32 via "$gw"; fi`,
    'while ip -4 route del default 2>/dev/null; do :; done',
    'while ip -6 route del default 2>/dev/null; do :; done',
  ];
  const lines = [...routes, ...v4.map((r) => `iptables -w 5 ${r}`), ...v6.map((r) => `{ ip6tables -w 5 ${r} || [ ! -e /proc/net/if_inet6 ]; }`)];
  return `set -e\n${lines.join('\n')}\necho guard set\n`;
}

export interface TrialPodInput {
  name: string;
  spec: EnvironmentSpec;
  image: string;
  /** Image of the guard (iptables on the base image); absent with `network: bridge` (no guard). */
  guardImage?: string;
  /** host:port of the gateway's relay pod. */
  relay: { ip: string; port: number };
  settings: KubernetesSettings;
  requestFraction?: number;
}

const tolerationsOf = (settings: KubernetesSettings): V1Toleration[] =>
  settings.tolerations.map((t) => ({
    key: t.key,
    operator: t.operator,
    value: t.value,
    effect: t.effect,
    ...(t.toleration_seconds !== undefined ? { tolerationSeconds: t.toleration_seconds } : {}),
  }));

/** What every pod of the harness shares: no service account token, no service links, no host namespaces. */
function podBase(settings: KubernetesSettings) {
  return {
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    hostNetwork: false,
    hostPID: false,
    hostIPC: false,
    ...(settings.service_account ? { serviceAccountName: settings.service_account } : {}),
    ...(settings.image_pull_secrets.length ? { imagePullSecrets: settings.image_pull_secrets.map((name) => ({ name })) } : {}),
  };
}

/**
 * A trial's pod: one container running `tools --trial` (it fetches the work from the gateway through the
 * relay and posts the result back), with the docker environment's memory and CPU limits, capabilities and no
 * privilege; never restarted; the pause container as the init that reaps (shared process namespace).
 */
export function trialPod(input: TrialPodInput): V1Pod {
  const { spec, settings } = input;
  const memory = `${spec.resources.memoryMb}Mi`;
  const cpu = String(spec.resources.cpus);
  const fraction = input.requestFraction ?? 1;
  const env = [
    ...Object.entries(spec.env).map(([name, value]) => ({ name, value })),
    { name: 'AAR_GATEWAY_RELAY', value: `${input.relay.ip}:${input.relay.port}` },
    { name: 'AAR_NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
  ];
  const guarded = spec.network === 'none';
  if (guarded && !input.guardImage) throw new Error('a trial without a network needs the guard image');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: input.name,
      labels: k8sLabels(spec.labels),
      annotations: { [LABELS_ANNOTATION]: JSON.stringify(spec.labels), [PIDS_ANNOTATION]: String(spec.resources.pids) },
    },
    spec: {
      ...podBase(settings),
      restartPolicy: 'Never',
      shareProcessNamespace: true,
      terminationGracePeriodSeconds: 1,
      ...(Object.keys(settings.node_selector).length ? { nodeSelector: settings.node_selector } : {}),
      ...(settings.tolerations.length ? { tolerations: tolerationsOf(settings) } : {}),
      ...(guarded
        ? {
            initContainers: [
              {
                name: 'guard',
                image: input.guardImage!,
                imagePullPolicy: 'IfNotPresent',
                command: ['sh', '-c', guardScript(input.relay.ip, input.relay.port)],
                resources: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '10m', memory: '16Mi' } },
                securityContext: {
                  privileged: false,
                  allowPrivilegeEscalation: false,
                  capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'NET_RAW'] },
                },
              },
            ],
          }
        : {}),
      containers: [
        {
          name: 'trial',
          image: input.image,
          imagePullPolicy: 'IfNotPresent',
          command: ['tools', '--trial'],
          workingDir: '/app',
          env,
          resources: {
            limits: { cpu, memory },
            requests: { cpu: `${Math.max(1, Math.round(spec.resources.cpus * 1000 * fraction))}m`, memory: `${Math.max(1, Math.round(spec.resources.memoryMb * fraction))}Mi` },
          },
          securityContext: {
            privileged: false,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'], add: KEEP_CAPABILITIES },
          },
        },
      ],
    },
  };
}

/**
 * A job's relay: a pod on the harness's node that mounts the gateway's socket folder and forwards TCP from
 * the cluster's network to it (`tools --forward`, as the swarm's relay). Trials reach the gateway through it,
 * by its pod address (no service, no name lookup), and the guard lets them reach nothing else.
 */
export function relayPod(o: { name: string; image: string; node: string; spec: EnvironmentSpec; labels: Record<string, string>; settings: KubernetesSettings }): V1Pod {
  const { spec } = o;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: o.name, labels: k8sLabels(o.labels), annotations: { [LABELS_ANNOTATION]: JSON.stringify(o.labels) } },
    spec: {
      ...podBase(o.settings),
      nodeName: o.node,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 1,
      ...(o.settings.tolerations.length ? { tolerations: tolerationsOf(o.settings) } : {}),
      volumes: [{ name: 'gateway', hostPath: { path: spec.gatewaySocketDir, type: 'Directory' } }],
      containers: [
        {
          name: 'relay',
          image: o.image,
          imagePullPolicy: 'IfNotPresent',
          command: ['tools', '--forward', `0.0.0.0:${spec.gatewayPort}`, `${SOCKET_MOUNT}/${spec.gatewaySocketName}`],
          ports: [{ containerPort: spec.gatewayPort, protocol: 'TCP' }],
          volumeMounts: [{ name: 'gateway', mountPath: SOCKET_MOUNT, readOnly: true }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '10m', memory: '32Mi' } },
          securityContext: { privileged: false, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
  };
}
