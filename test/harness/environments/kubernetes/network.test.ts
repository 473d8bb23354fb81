/**
 * A hostile agent in a Kubernetes trial pod reaches the gateway and nothing else: not another pod, not the
 * API server (its service address, the address in the pod's own environment, its port on the node), not the
 * node (its addresses, the kubelet, a port of this machine), not the metadata address, and no spelling of
 * loopback leads anywhere but the pod's own. Everything off the pod is refused inside the pod by its guard
 * (no route, or dropped by its firewall): datagrams fail in the pod, and neither the other pod nor this
 * machine hears anything; the gateway answers through the relay.
 */
import { jest } from '@jest/globals';
import dgram from 'node:dgram';
import net from 'node:net';
import os from 'node:os';
import { ensureBaseImage } from '../../../../images/build.js';
import { work } from '../conformance.js';
import { clusterClient, clusterSettings, noClusterReason, podsNamed, trialRig } from './cluster.js';

const WHY_NOT = await noClusterReason();
if (WHY_NOT) console.warn(`kubernetes network tests skipped: ${WHY_NOT}`);
const image = WHY_NOT ? '' : await ensureBaseImage();
const PREFIX = `aar-test-net${process.pid}-`;
jest.setTimeout(300_000);

/** The pod's probe: each host:port connected to once over TCP, and sent a UDP datagram; prints {target: outcome}. */
const PROBE = `
const net = require('net'); const dgram = require('dgram');
const [targets, udpTargets] = JSON.parse(process.argv[1]);
const trySend = ([host, port]) => new Promise((resolve) => {
  const s = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  s.send('probe', port, host, (e) => { s.close(); resolve(e ? e.code : 'sent'); });
});
const tryConnect = ([host, port]) => new Promise((resolve) => {
  const s = net.connect({ host, port, timeout: 3000 });
  s.on('connect', () => { s.destroy(); resolve('open'); });
  s.on('timeout', () => { s.destroy(); resolve('timeout'); });
  s.on('error', (e) => resolve(e.code));
});
(async () => {
  const out = {};
  for (const t of targets) out[t.join(' ')] = await tryConnect(t);
  for (const t of udpTargets) out['udp ' + t.join(' ')] = await trySend(t);
  out.serviceHost = process.env.KUBERNETES_SERVICE_HOST + ':' + process.env.KUBERNETES_SERVICE_PORT;
  console.log(JSON.stringify(out));
})();`;

/** The other pod: it listens on TCP 7000 and UDP 7001 and says on its stdout whatever reaches it. */
const NEIGHBOUR = "require('net').createServer((s) => { console.log('tcp'); s.end('neighbour'); }).listen(7000); require('dgram').createSocket('udp4').on('message', (m) => console.log('udp ' + m)).bind(7001);";

(WHY_NOT ? describe.skip : describe)('a hostile agent in a Kubernetes pod', () => {
  let rig: Awaited<ReturnType<typeof trialRig>>;
  let neighbour = '';
  const hostHits: string[] = [];
  const hostServer = net.createServer((s) => {
    hostHits.push('tcp');
    s.end('host\n');
  });
  const hostUdp = dgram.createSocket('udp4').on('message', () => hostHits.push('udp'));

  beforeAll(async () => {
    rig = await trialRig(clusterSettings(PREFIX), `aar-test-net-${process.pid}`, image);
    await new Promise<void>((resolve) => hostServer.listen(0, '0.0.0.0', resolve));
    await new Promise<void>((resolve) => hostUdp.bind(0, '0.0.0.0', resolve));
  });
  afterAll(async () => {
    hostServer.close();
    hostUdp.close();
    if (neighbour) await clusterClient().deleteNamespacedPod({ name: neighbour, namespace: 'default', gracePeriodSeconds: 0 }).catch(() => {});
    await rig?.close();
    expect(await podsNamed(PREFIX)).toEqual([]);
  });

  test('reaches the gateway, and nothing else: other pods, the API server, the node, the metadata address, loopback spellings', async () => {
    const hostPort = (hostServer.address() as net.AddressInfo).port;
    const nodeAddresses = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    // The trial's pod first (it brings the image onto the node), then another pod, listening, with no guard:
    // what the trial must not reach. The trial's pod waits for its work meanwhile.
    const { sandbox, done } = await rig.start('hostile');
    try {
      neighbour = `${PREFIX}neighbour`;
      await clusterClient().createNamespacedPod({
        namespace: 'default',
        body: {
          metadata: { name: neighbour, labels: { 'aar-test': 'neighbour' } },
          spec: {
            automountServiceAccountToken: false,
            containers: [{ name: 'listen', image, imagePullPolicy: 'IfNotPresent', command: ['node', '-e', NEIGHBOUR] }],
          },
        },
      });
      let neighbourIp = '';
      for (let i = 0; i < 240 && !neighbourIp; i++) {
        const pod = await clusterClient().readNamespacedPod({ name: neighbour, namespace: 'default' });
        if (pod.status?.containerStatuses?.[0]?.ready && pod.status.podIP) neighbourIp = pod.status.podIP;
        else await new Promise((r) => setTimeout(r, 500));
      }
      expect(neighbourIp).not.toBe('');
      const offPod: [string, number][] = [
        [neighbourIp, 7000],
        ['10.214.0.1', 443], // the API server's service address
        ...nodeAddresses.flatMap((a): [string, number][] => [[a, hostPort], [a, 26443], [a, 26250]]), // a port of this machine, the API server, the kubelet
        ['169.254.169.254', 80], // the metadata address
      ];
      // Loopback in a pod is the pod's own: only the relay to the gateway listens there.
      const loopback: [string, number][] = ['127.0.0.1', '127.0.0.2', '127.1', '0.0.0.0', 'localhost', '::1', '::ffff:127.0.0.1', '2130706433'].flatMap((h): [string, number][] => [[h, 26443], [h, hostPort]]);
      const udpPort = (hostUdp.address() as net.AddressInfo).port;
      const udpTargets: [string, number][] = [[neighbourIp, 7001], ...nodeAddresses.map((a): [string, number] => [a, udpPort]), ['169.254.169.254', 53]];
      const result = await sandbox.run(work({ command: ['sh', '-c', `tools --ping && node -e "$0" "$1"`, PROBE, JSON.stringify([[...offPod, ...loopback, ['127.0.0.1', 8900]], udpTargets])] }));
      expect(result.stdout.toString()).toMatch(/gateway ok/);
      const seen = JSON.parse(result.stdout.toString().split('\n').find((l) => l.startsWith('{'))!) as Record<string, string>;
      // Off the pod: no connection (no route out, or dropped by its firewall) ...
      for (const [host, port] of offPod) expect([[`${host} ${port}`, 'ENETUNREACH'], [`${host} ${port}`, 'EPERM'], [`${host} ${port}`, 'timeout']]).toContainEqual([`${host} ${port}`, seen[`${host} ${port}`]]);
      // ... and nothing left the pod: a datagram is refused in the pod itself, and neither the other pod nor this machine heard anything.
      for (const [host, port] of udpTargets) expect([[`udp ${host} ${port}`, 'ENETUNREACH'], [`udp ${host} ${port}`, 'EPERM']]).toContainEqual([`udp ${host} ${port}`, seen[`udp ${host} ${port}`]]);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await clusterClient().readNamespacedPodLog({ name: neighbour, namespace: 'default' })).toBe('');
      expect(hostHits).toEqual([]);
      // The address the pod's environment names for the API server is one of those refused.
      expect(seen.serviceHost).toBe('10.214.0.1:443');
      for (const [host, port] of loopback) expect([`${host} ${port}`, seen[`${host} ${port}`]]).not.toEqual([`${host} ${port}`, 'open']);
      // The one open port on loopback is the relay to the gateway.
      expect(seen['127.0.0.1 8900']).toBe('open');
    } finally {
      await sandbox.remove();
      done();
    }
  });
});
