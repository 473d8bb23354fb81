import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { alive, loadImagesInto, logTail, missingForEngineTest, sleep, waitForEngine } from './engine-process.js';

/**
 * A Docker engine of a test's own, beside the shared one (which other tests and people use, and which a
 * test must never stop): its own data root, exec root (so its own containerd), pid file and socket, no
 * bridge and no iptables rules. The test may stop and restart it at will. Root only.
 */

const PREFIX = '/tmp/aar-eng';

/** Why this machine cannot run a private engine, or null when it can. */
export async function privateEngineUnavailable(): Promise<string | null> {
  return missingForEngineTest('private-engine test', ['dockerd', 'docker'], 'a second dockerd');
}

/** Unmounts what an engine left under a folder (overlay layers, container namespaces), deepest first, then removes it. */
async function removeEngineRoot(root: string): Promise<void> {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4]).filter((p) => p?.startsWith(root + '/'));
  for (const p of mounts.sort((a, b) => b.length - a.length)) await execa('umount', ['-l', p], { reject: false });
  rmSync(root, { recursive: true, force: true });
}

/** SIGKILLs every process whose command line names a path under `root` (an engine's containerd and shims). */
async function killProcessesUnder(root: string): Promise<void> {
  const procs = ((await execa('ps', ['-eo', 'pid=,args='], { reject: false })).stdout ?? '').split('\n');
  const pids = procs.filter((l) => l.includes(root + '/')).map((l) => Number(l.trim().split(' ')[0])).filter((pid) => pid !== process.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (pids.length) await sleep(500);
}

/** Engines left by a test process that was killed before its clean-up (named by its pid): stopped and removed. */
export async function removeStaleEngines(): Promise<string[]> {
  const stale = readdirSync(path.dirname(PREFIX))
    .map((d) => ({ root: path.join(path.dirname(PREFIX), d), pid: /^aar-eng(\d+)-/.exec(d)?.[1] }))
    .filter((e) => e.pid && !alive(Number(e.pid)));
  for (const { root } of stale) {
    await killProcessesUnder(root);
    await removeEngineRoot(root);
  }
  return stale.map((s) => s.root);
}

export class PrivateEngine {
  readonly root = mkdtempSync(`${PREFIX}${process.pid}-`);
  readonly socket = path.join(this.root, 'docker.sock');
  /** The DOCKER_HOST value that reaches this engine. */
  readonly host = `unix://${this.socket}`;
  private daemon: ResultPromise | undefined;

  docker(args: string[]) {
    return execa('docker', ['-H', this.host, ...args]);
  }

  async start(): Promise<void> {
    // In a network namespace of its own: started with --bridge=none in the host's, dockerd deletes the host's
    // docker0, which the shared engine's containers need.
    const dockerd = [
      'unshare', '--net', 'dockerd', '--data-root', `${this.root}/data`, '--exec-root', `${this.root}/exec`, '--pidfile', `${this.root}/dockerd.pid`,
      '-H', this.host, '--bridge=none', '--iptables=false', '--ip6tables=false',
    ];
    this.daemon = execa('sh', ['-c', `exec ${dockerd.join(' ')} >>${this.root}/dockerd.log 2>&1`], { stdio: 'ignore', reject: false });
    await waitForEngine(this.socket, () => `the private dockerd did not answer: ${this.log()}`);
  }

  /**
   * Stops the engine as `systemctl stop docker` does (SIGTERM: it stops its containers), and waits for it to
   * exit; SIGKILL past `killAfterMs`.
   */
  async stop(killAfterMs = 30_000): Promise<void> {
    const daemon = this.daemon;
    this.daemon = undefined;
    if (!daemon || daemon.exitCode !== null || daemon.signalCode) return;
    daemon.kill('SIGTERM');
    const timer = setTimeout(() => daemon.kill('SIGKILL'), killAfterMs);
    await daemon;
    clearTimeout(timer);
  }

  /** `docker save` from the shared engine into this one (one stream: shared layers travel once). */
  async loadImages(tags: string[]): Promise<void> {
    await loadImagesInto(this.host, tags);
  }

  /**
   * Containers on this engine whose labels include `label` (key=value), as `id state`, leaving out those whose
   * removal the engine itself left half-done when it stopped (`removing`, `dead`: it lists them until it gets
   * round to them, and a client's `rm -f` is refused meanwhile).
   */
  async containers(label: string): Promise<string[]> {
    const out = (await this.docker(['ps', '-a', '--filter', `label=${label}`, '--format', '{{.ID}} {{.State}}'])).stdout.trim();
    return out ? out.split('\n').filter((l) => !/ (removing|dead)$/.test(l)) : [];
  }

  log(): string {
    return logTail(path.join(this.root, 'dockerd.log'));
  }

  /**
   * Removes everything: the engine (which stops its containers as it goes), its data root. An engine still
   * busy after 5 s (one that stopped while removing a container may hang on it) is killed, with its
   * containerd and shims. Never throws.
   */
  async destroy(): Promise<void> {
    await this.stop(5000).catch(() => {});
    await killProcessesUnder(this.root);
    await removeEngineRoot(this.root);
  }
}
