import { execa, type ResultPromise } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alive, loadImagesInto, logTail, missingForEngineTest, sleep, waitForEngine } from '../../helpers/engine-process.js';

/**
 * A two-node swarm of its own, apart from the host's engine: two dockerd, each in a network namespace made
 * here (hostnames of their own through a UTS namespace), joined by one veth pair on private addresses.
 * The manager advertises its namespace address; nothing routes out of the namespaces. Root only.
 */
export interface ClusterNode {
  name: string;
  netns: string;
  address: string;
  socket: string;
  link: string;
}

/** Why this machine cannot run the two-node test, or null when it can. */
export async function twoNodeUnavailable(): Promise<string | null> {
  return missingForEngineTest('two-node swarm test', ['dockerd', 'nsenter', 'unshare', 'ip', 'docker'], 'network namespaces, a second dockerd');
}

/**
 * Clusters left by a test run that was killed before its clean-up (their engines keep running and load the
 * machine): every engine, namespace and folder tagged `aar2n<pid>` whose test process is gone is removed.
 * Returns the tags removed.
 */
export async function removeStaleClusters(): Promise<string[]> {
  const quiet = { reject: false } as const;
  const procs = ((await execa('ps', ['-eo', 'pid=,args='], quiet)).stdout ?? '').split('\n');
  const netns = ((await execa('ip', ['netns', 'list'], quiet)).stdout ?? '').split('\n').map((l) => l.split(' ')[0]);
  const tags = new Set<string>();
  for (const text of [...procs, ...netns]) {
    for (const m of text.matchAll(/aar2n(\d+)/g)) if (!alive(Number(m[1]))) tags.add(`aar2n${m[1]}`);
  }
  for (const tag of tags) {
    for (const line of procs.filter((l) => l.includes(`/${tag}-`))) process.kill(Number(line.trim().split(' ')[0]), 'SIGKILL');
  }
  await sleep(tags.size ? 1000 : 0);
  const roots = new Set<string>();
  for (const line of procs) {
    const root = /(\S*\/aar-2n-[^/\s]+)\/aar2n(\d+)-/.exec(line);
    if (root && tags.has(`aar2n${root[2]}`)) roots.add(root[1]);
  }
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4]);
  for (const root of roots) {
    for (const p of mounts.filter((m) => m?.startsWith(root)).sort((a, b) => b.length - a.length)) await execa('umount', ['-l', p], quiet);
    rmSync(root, { recursive: true, force: true });
  }
  for (const name of netns) if ([...tags].some((t) => name === `${t}m` || name === `${t}w`)) await execa('ip', ['netns', 'del', name], quiet);
  return [...tags];
}

export class TwoNodeCluster {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'aar-2n-'));
  readonly tag = `aar2n${process.pid % 100000}`;
  readonly manager: ClusterNode;
  readonly worker: ClusterNode;
  private readonly daemons: ResultPromise[] = [];
  private readonly listeners: ResultPromise[] = [];

  constructor(subnet = `10.231.${process.pid % 250}`) {
    const node = (role: string, host: number): ClusterNode => ({
      name: `${this.tag}-${role}`,
      netns: `${this.tag}${role[0]}`,
      address: `${subnet}.${host}`,
      socket: path.join(this.root, `${role}.sock`),
      link: `${this.tag}v${role[0]}`,
    });
    this.manager = node('manager', 1);
    this.worker = node('worker', 2);
  }

  docker(node: ClusterNode, args: string[]) {
    return execa('docker', ['-H', `unix://${node.socket}`, ...args]);
  }

  async start(): Promise<void> {
    const { manager: m, worker: w } = this;
    await execa('ip', ['netns', 'add', m.netns]);
    await execa('ip', ['netns', 'add', w.netns]);
    await execa('ip', ['link', 'add', m.link, 'type', 'veth', 'peer', 'name', w.link]);
    for (const n of [m, w]) {
      await execa('ip', ['link', 'set', n.link, 'netns', n.netns]);
      await execa('ip', ['-n', n.netns, 'addr', 'add', `${n.address}/24`, 'dev', n.link]);
      await execa('ip', ['-n', n.netns, 'link', 'set', n.link, 'up']);
      await execa('ip', ['-n', n.netns, 'link', 'set', 'lo', 'up']);
      this.startDaemon(n);
    }
    for (const n of [m, w]) await this.waitForEngine(n);
    // A short heartbeat: a lost node is marked down within seconds (the default is 5 s, times a grace).
    await this.docker(m, ['swarm', 'init', '--advertise-addr', m.address, '--dispatcher-heartbeat', '1s']);
    const token = (await this.docker(m, ['swarm', 'join-token', '-q', 'worker'])).stdout.trim();
    await this.docker(w, ['swarm', 'join', '--advertise-addr', w.address, '--token', token, `${m.address}:2377`]);
  }

  /** dockerd entered into the node's network namespace (nsenter, not `ip netns exec`, which hides the cgroup mounts). */
  private startDaemon(n: ClusterNode): void {
    const dir = path.join(this.root, n.name);
    const dockerd = [
      'dockerd', '--data-root', `${dir}/data`, '--exec-root', `${dir}/exec`, '--pidfile', `${dir}/dockerd.pid`,
      '-H', `unix://${n.socket}`, '--bridge=none', '--iptables=false', '--ip6tables=false',
    ].join(' ');
    const child = execa('nsenter', [`--net=/var/run/netns/${n.netns}`, 'unshare', '--uts', 'sh', '-c', `hostname ${n.name} && exec ${dockerd} >${this.root}/${n.name}.log 2>&1`], {
      stdio: 'ignore',
      reject: false,
    });
    this.daemons.push(child);
  }

  private async waitForEngine(n: ClusterNode): Promise<void> {
    await waitForEngine(n.socket, () => `dockerd of ${n.name} did not answer: ${this.log(n)}`);
  }

  log(n: ClusterNode): string {
    return logTail(path.join(this.root, `${n.name}.log`));
  }

  /** `docker save` from the host engine into the manager (one stream: shared layers travel once). */
  async loadImages(tags: string[]): Promise<void> {
    await loadImagesInto(`unix://${this.manager.socket}`, tags);
  }

  /** A TCP server inside a node's namespace (a port of that machine a sandbox must not reach). */
  async listen(n: ClusterNode, port: number): Promise<void> {
    const server = `require('net').createServer((s) => s.end('reached\\n')).listen(${port}, '0.0.0.0')`;
    this.listeners.push(execa('nsenter', [`--net=/var/run/netns/${n.netns}`, process.execPath, '-e', server], { stdio: 'ignore', reject: false }));
    for (let i = 0; i < 40; i++) {
      const probe = `require('net').connect(${port}, '${n.address}').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
      if ((await execa('nsenter', [`--net=/var/run/netns/${n.netns}`, process.execPath, '-e', probe], { reject: false })).exitCode === 0) return;
      await sleep(250);
    }
    throw new Error(`the test server on ${n.name}:${port} did not start`);
  }

  /** The worker's machine drops off the network: its link goes down (its engine and containers keep running, cut off). */
  async cutOff(n: ClusterNode): Promise<void> {
    await execa('ip', ['-n', n.netns, 'link', 'set', n.link, 'down']);
  }

  /** Swarm's view of the nodes: hostname -> state. */
  async nodeStates(): Promise<Record<string, string>> {
    const out = (await this.docker(this.manager, ['node', 'ls', '--format', '{{.Hostname}} {{.Status}}'])).stdout;
    return Object.fromEntries(out.trim().split('\n').map((l) => l.split(' ') as [string, string]));
  }

  /** Removes everything: containers, engines, namespaces, the veth pair, data roots. Never throws. */
  async stop(): Promise<void> {
    const quiet = { reject: false } as const;
    for (const l of this.listeners) l.kill('SIGKILL');
    for (const n of [this.worker, this.manager]) {
      if (!existsSync(n.socket)) continue;
      const ids = (await execa('docker', ['-H', `unix://${n.socket}`, 'ps', '-aq'], quiet)).stdout?.trim();
      if (ids) await execa('docker', ['-H', `unix://${n.socket}`, 'rm', '-f', ...ids.split('\n')], quiet);
    }
    for (const d of this.daemons) d.kill('SIGTERM');
    await Promise.all(this.daemons.map((d) => (d.exitCode !== null || d.signalCode ? undefined : new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        d.kill('SIGKILL');
        resolve();
      }, 20_000);
      d.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    }))));
    await sleep(500);
    // Mounts an engine left under its roots (overlay layers, network namespaces of containers), deepest first.
    const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4]).filter((p) => p?.startsWith(this.root));
    for (const p of mounts.sort((a, b) => b.length - a.length)) await execa('umount', ['-l', p], quiet);
    for (const n of [this.manager, this.worker]) await execa('ip', ['netns', 'del', n.netns], quiet);
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Engines, namespaces and links of this cluster still on the machine (empty after stop()). */
  async leftovers(): Promise<string[]> {
    const netns = (await execa('ip', ['netns', 'list'], { reject: false })).stdout ?? '';
    const links = (await execa('ip', ['-o', 'link'], { reject: false })).stdout ?? '';
    const procs = (await execa('ps', ['-eo', 'args'], { reject: false })).stdout ?? '';
    return [
      ...netns.split('\n').filter((l) => l.startsWith(this.tag)),
      ...links.split('\n').filter((l) => l.includes(this.tag)),
      ...procs.split('\n').filter((l) => l.includes(this.root) && !l.includes('ps -eo')),
      ...(existsSync(this.root) ? [this.root] : []),
    ];
  }
}
