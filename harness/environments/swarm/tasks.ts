import { docker } from '../../../common/docker.js';

interface SwarmTask {
  ServiceID?: string;
  CreatedAt?: string;
  NodeID?: string;
  DesiredState?: string;
  Status?: { State?: string; Err?: string; ContainerStatus?: { ExitCode?: number } };
}

/** Task states after which the container will not run (again). */
const ENDED = new Set(['complete', 'failed', 'rejected', 'shutdown', 'orphaned', 'remove']);
const POLL_MS = 500;
/** How long a started container may take to fetch its work from the gateway. */
const FETCH_LIMIT_MS = 60_000;
/** How long the result may trail a container that ended. */
const RESULT_GRACE_MS = 5_000;

const hostnames = new Map<string, Promise<string>>();

/** A node's hostname (its id when it cannot be read). */
function nodeName(id: string): Promise<string> {
  let name = hostnames.get(id);
  if (!name) {
    name = docker()
      .getNode(id)
      .inspect()
      .then((n: { Description?: { Hostname?: string } }) => n.Description?.Hostname ?? id, () => id);
    hostnames.set(id, name);
  }
  return name;
}

/** The state of each service's newest task (services without a task are left out). */
export async function taskStates(serviceIds: string[]): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  if (!serviceIds.length) return states;
  const tasks = (await docker().listTasks({ filters: { service: serviceIds } })) as SwarmTask[];
  tasks.sort((a, b) => (a.CreatedAt ?? '').localeCompare(b.CreatedAt ?? ''));
  for (const task of tasks) if (task.ServiceID && task.Status?.State) states.set(task.ServiceID, task.Status.State);
  return states;
}

/**
 * Follows the one task of a trial's service: which node took it, and whether it failed, ended without a
 * result, lost its node, or overran its timeout. `failed` resolves with 'timeout' or with the reason.
 */
export class TaskWatcher {
  nodeName: string | null = null;
  private nodeDownSince: number | null = null;

  constructor(
    private readonly service: string,
    private readonly nodeDownGraceMs: number,
  ) {}

  /** The service's newest task; undefined when it has none, or the service is gone (the engine answers 404 then). */
  private async task(): Promise<SwarmTask | undefined> {
    const tasks = (await docker()
      .listTasks({ filters: { service: [this.service] } })
      .catch((e: { statusCode?: number }) => (e.statusCode === 404 ? [] : Promise.reject(e)))) as SwarmTask[];
    return tasks.sort((a, b) => (b.CreatedAt ?? '').localeCompare(a.CreatedAt ?? ''))[0];
  }

  watch(fetched: () => boolean, limitAfterFetchMs: number): { failed: Promise<string>; stop: () => void } {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let runningSince: number | null = null;
    let fetchedAt: number | null = null;
    let endedAt: number | null = null;
    const failed = new Promise<string>((resolve) => {
      const tick = async (): Promise<void> => {
        if (stopped) return;
        const reason = await this.check(fetched, limitAfterFetchMs, { runningSince, fetchedAt, endedAt }).catch(() => undefined);
        if (typeof reason === 'string') return resolve(reason);
        if (reason) ({ runningSince, fetchedAt, endedAt } = reason);
        timer = setTimeout(() => void tick(), POLL_MS);
      };
      void tick();
    });
    return {
      failed,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private async check(
    fetched: () => boolean,
    limitAfterFetchMs: number,
    t: { runningSince: number | null; fetchedAt: number | null; endedAt: number | null },
  ): Promise<string | typeof t> {
    const now = Date.now();
    const task = await this.task();
    if (!task) {
      const exists = await docker().getService(this.service).inspect().then(() => true, (e: { statusCode?: number }) => e.statusCode !== 404);
      return exists ? t : 'the trial service is gone (removed from outside the harness?)';
    }
    if (task.NodeID) {
      this.nodeName ??= await nodeName(task.NodeID);
      const node = (await docker().getNode(task.NodeID).inspect()) as { Status?: { State?: string } };
      if (node.Status?.State === 'down') {
        this.nodeDownSince ??= now;
        if (now - this.nodeDownSince >= this.nodeDownGraceMs) return `node ${this.nodeName} left the swarm while the trial ran (its trials run again elsewhere)`;
      } else this.nodeDownSince = null;
    }
    const state = task.Status?.State ?? 'unknown';
    if (state === 'running') t.runningSince ??= now;
    if (fetched()) t.fetchedAt ??= now;
    if (t.fetchedAt !== null && now - t.fetchedAt > limitAfterFetchMs) return 'timeout';
    if (t.runningSince !== null && t.fetchedAt === null && now - t.runningSince > FETCH_LIMIT_MS) {
      return `the trial container on ${this.nodeName} did not reach the gateway within ${FETCH_LIMIT_MS / 1000} s`;
    }
    if (state === 'failed' || state === 'rejected' || state === 'orphaned') {
      return `swarm task ${state} on ${this.nodeName ?? 'no node'}: ${task.Status?.Err ?? 'no reason given'}`;
    }
    if (ENDED.has(state)) {
      t.endedAt ??= now;
      if (now - t.endedAt > RESULT_GRACE_MS) {
        return `the trial container on ${this.nodeName ?? 'no node'} ended (${state}, exit ${task.Status?.ContainerStatus?.ExitCode ?? '?'}) without handing back its result`;
      }
    }
    return t;
  }
}
