import { docker } from '../../../common/docker.js';
import { NO_GATEWAY } from '../../../trial/handover.js';
import type { SandboxFate, TrialWork, TrialWorkResult, WorkHandover } from '../types.js';
import type { DockerSandbox } from './container.js';
import { collectByArchive } from './copy-out.js';
import { containerFate, watchForPause } from './fate.js';
import { outputCuts, outputReached, outputSinks } from './output.js';
import { recordContainerCpu } from './usage.js';

/** How long past the timeout the container may take to hand back its result before it is killed. */
export const RESULT_GRACE_MS = 15_000;
/** How long the container waits for its work (the gateway answers at once when it is there at all). */
export const WORK_WAIT_S = 10;
/** How long the output the sandbox says it wrote may take to arrive after its result, before the harness waits for the container to stop instead. */
const OUTPUT_SETTLE_MS = 2_000;

type Ending = { result: TrialWorkResult } | { exit: number | null } | { backstop: true } | { paused: true };

const settleWithin = <T>(promise: Promise<T>, ms: number): Promise<T | undefined> =>
  Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())]);

/**
 * A docker trial run the way `docker run` runs a command: the container's first process is `tools --trial`,
 * which fetches the work from the gateway (files, command, limits), runs it under the timeout, and posts the
 * exit status and the collected files back; its output comes live over the attach stream. The harness only
 * creates, attaches, starts, waits and removes: no archive goes in, none comes out, nothing is exec'd.
 * When the container stops without a result (killed, out of memory), its files are copied out of it instead.
 */
export async function runSelfContained(sandbox: DockerSandbox, handover: WorkHandover, work: TrialWork): Promise<TrialWorkResult> {
  const { container } = sandbox;
  if (sandbox.killedAt < Infinity) throw new Error('the container was stopped before its run began');
  handover.offer(work);
  const { out, err } = outputSinks(work);
  const stream = await container.attach({ stream: true, stdout: true, stderr: true, hijack: true });
  docker().modem.demuxStream(stream, out.sink, err.sink);
  const streamEnded = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  // Asked before the start, so an instant exit is not missed.
  const exited = container.wait({ condition: 'next-exit' }).then(
    (r: { StatusCode?: number }) => ({ exit: r.StatusCode ?? null }),
    () => ({ exit: null }),
  );
  // A pause from outside stops the agent without ending anything the run waits for: the engine says so.
  const pauses = watchForPause(container.id);
  const startedAt = Date.now();
  const started = performance.now();
  try {
    return await runStarted(sandbox, handover, work, { out, err, stream, streamEnded, exited, startedAt, started, paused: pauses.seen });
  } finally {
    pauses.stop();
  }
}

interface Started {
  out: ReturnType<typeof outputSinks>['out'];
  err: ReturnType<typeof outputSinks>['err'];
  stream: NodeJS.ReadableStream & { destroy?: () => void };
  streamEnded: Promise<void>;
  exited: Promise<{ exit: number | null }>;
  startedAt: number;
  started: number;
  paused: Promise<string>;
}

async function runStarted(sandbox: DockerSandbox, handover: WorkHandover, work: TrialWork, s: Started): Promise<TrialWorkResult> {
  const { out, err } = s;
  await sandbox.container.start();
  // A job stopped while the container was starting: kill() found nothing running then.
  if (sandbox.killedAt < Infinity) await sandbox.kill();
  let timer: NodeJS.Timeout | undefined;
  const backstop = new Promise<{ backstop: true }>((resolve) => (timer = setTimeout(() => resolve({ backstop: true }), work.timeoutMs + RESULT_GRACE_MS)));
  const paused = s.paused.then(() => ({ paused: true as const }));
  const ending: Ending = await Promise.race([handover.result().then((result) => ({ result }), () => ({ exit: null })), s.exited, backstop, paused]);
  clearTimeout(timer);
  // The agent's time on the harness's clock: from the work fetched (else the start) to now.
  const agentMs = performance.now() - (handover.fetchedAt ?? s.started);

  if ('paused' in ending) {
    await sandbox.kill();
    return { exitCode: null, timedOut: false, durationMs: agentMs, stdout: out.bytes(), stderr: err.bytes(), files: {}, dirs: {}, node: sandbox.node, cuts: [], fate: { outside: 'paused from outside' } };
  }
  if ('result' in ending) return reportedEnd(sandbox, work, s, ending.result);
  return unreportedEnd(sandbox, handover, work, s, ending, agentMs);
}

/** The runner reported its result: the output waited for, and the container's fate looked up when it died by a signal. */
async function reportedEnd(sandbox: DockerSandbox, work: TrialWork, s: Started, r: TrialWorkResult): Promise<TrialWorkResult> {
  const { container } = sandbox;
  const { out, err } = s;
  recordContainerCpu(container.id);
  // The output is complete once as much has come as the runner says it wrote: the stream is closed then, and
  // the container's stop and removal happen off the trial's path (the trial runner removes it). Without that
  // word, or when it does not hold, the output is complete once the container has stopped and its stream ended.
  if (r.echoed && (await settleWithin(outputReached(out, err, r.echoed).then(() => true), OUTPUT_SETTLE_MS))) s.stream.destroy?.();
  else {
    if ((await settleWithin(s.exited, 5_000)) === undefined) await sandbox.kill();
    await settleWithin(s.streamEnded, 2_000);
  }
  const failed = !r.timedOut && r.exitCode !== 0 && (r.exitCode === null || r.exitCode >= 128);
  const fate = failed ? await containerFate(container.id, s.startedAt, sandbox.killedAt) : undefined;
  return {
    ...r,
    stdout: out.bytes(),
    stderr: err.bytes(),
    node: sandbox.node,
    cuts: [...outputCuts(out, err, work.limits.logBytes), ...r.cuts],
    ...(fate && (fate.outside || fate.oomAtOwnLimit) ? { fate } : {}),
  };
}

/** No result from the runner (it exited, or the backstop fired): the container's fate, and its files collected by archive. */
async function unreportedEnd(sandbox: DockerSandbox, handover: WorkHandover, work: TrialWork, s: Started, ending: { exit: number | null } | { backstop: true }, agentMs: number): Promise<TrialWorkResult> {
  const { container } = sandbox;
  const { out, err } = s;
  const timedOut = 'backstop' in ending;
  // A container paused or killed from outside also ends here: look before killing it.
  const fate: SandboxFate = await containerFate(container.id, s.startedAt, sandbox.killedAt, timedOut ? 0 : 1000);
  if (timedOut) await sandbox.kill();
  await settleWithin(s.streamEnded, 2_000);
  const exit = 'exit' in ending ? ending.exit : null;
  if (!fate.outside && !handover.fetched) {
    const why = exit === 126 || exit === 127
      ? `the image cannot run \`tools --trial\` (exit status ${exit}; build it on the aar base image)`
      : `${NO_GATEWAY} through /run/aar (the work was not fetched within ${WORK_WAIT_S} s)`;
    throw new Error(why + stderrTail(err.bytes()));
  }
  const cuts = outputCuts(out, err, work.limits.logBytes);
  const { files, dirs } = fate.outside === 'removed' ? { files: {}, dirs: {} } : await collectByArchive(container, work, cuts);
  return {
    exitCode: timedOut || fate.outside === 'removed' ? null : exit,
    timedOut,
    durationMs: agentMs,
    stdout: out.bytes(),
    stderr: err.bytes(),
    files,
    dirs,
    node: sandbox.node,
    cuts,
    ...(fate.outside || fate.oomAtOwnLimit ? { fate } : {}),
  };
}

const stderrTail = (stderr: Buffer): string => {
  const text = stderr.toString('utf8').trim().split('\n').pop();
  return text ? `: ${text.slice(0, 300)}` : '';
};
