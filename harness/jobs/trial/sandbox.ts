import { accessSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { ANSWER_LIMIT_BYTES, cutMarker, LOG_LIMIT_BYTES, type FileCut } from '../../../trial/copy-limits.js';
import { TRIAL_FILES } from '../../../trial/folder.js';
import type { TrialEnvironment, TrialWork, TrialWorkResult } from '../../environments/types.js';
import { takeLogFailure } from '../../gateway/log-append.js';
import { acceptResult, RefusedList, writeCollectedDirs } from '../collected.js';
import { harnessLabels } from '../labels.js';
import type { TrialPlan } from '../plan.js';
import { LogFileSink } from '../write-errors.js';
import { InfraError, TrialAborted, type TrialRunContext } from './context.js';
import { GATEWAY_PORT, GATEWAY_URL, type PreparedAgent, type StagedTrial } from './prepare.js';

const ANSWER = '/app/answer.txt';

/** What came out of the sandbox, taken and bounded; the sandbox itself is removed. */
export interface SandboxRun {
  work: TrialWork;
  /** Only what the work asked for (collected.ts). */
  result: TrialWorkResult;
  /** The agent's run time on the harness's own clock (the environment measures it), never the sandbox's report. */
  agentSeconds: number;
  /** When the work was handed to the sandbox and when its result came back (ms, the harness's clock): the agent phase. */
  handedOverAt: number;
  returnedAt: number;
  answer: Buffer | null;
  /** Files copied out over their limit (trial/copy-limits.ts), listed in trial.json. */
  cuts: FileCut[];
  refused: RefusedList;
}

/** The sandbox of a running trial, once started and until retired: the trial runner retires it whatever happens. */
export interface SandboxHolder {
  env?: TrialEnvironment;
}

/** Phase 2: the agent runs in its sandbox; its outputs are taken into the staged folder and the sandbox is retired (removed off the trial's path). */
export async function runInSandbox(ctx: TrialRunContext, plan: TrialPlan, staged: StagedTrial, prepared: PreparedAgent, holder: SandboxHolder): Promise<SandboxRun> {
  const env = await startSandbox(ctx, plan, staged, prepared);
  holder.env = env;
  ctx.running.add(env);
  if (ctx.signal.aborted) throw new TrialAborted('job interrupted');

  const cuts: FileCut[] = [];
  const handedOverAt = Date.now();
  const { work, posted, streamed } = await runAgent(ctx, staged, prepared, env, cuts);
  const returnedAt = Date.now();
  // What came out of the sandbox is its word: only what the work asked for is taken (collected.ts).
  const refused = new RefusedList();
  const result = acceptResult(work, posted, refused);
  if (!streamed) writeReturnedLogs(staged.agentDir, result, cuts);
  checkRunEnded(ctx, plan, staged, result);
  const answer = takeOutputs(staged.agentDir, prepared, result, cuts, refused);
  ctx.running.delete(env);
  ctx.retire(env);
  holder.env = undefined;
  return { work, result, agentSeconds: result.durationMs / 1000, handedOverAt, returnedAt, answer, cuts, refused };
}

async function startSandbox(ctx: TrialRunContext, plan: TrialPlan, staged: StagedTrial, prepared: PreparedAgent): Promise<TrialEnvironment> {
  const { config } = ctx;
  const { token, handover } = staged.gatewayTrial;
  try {
    return await ctx.environment.start({
      image: ctx.images.get(plan.agentId)!,
      labels: { ...harnessLabels(ctx.jobDir, ctx.jobKey), 'aar.job': ctx.jobName, 'aar.trial': plan.trialId },
      env: { ...prepared.launch.env, ...plan.agent.env, AAR_TRIAL_TOKEN: token, AAR_GATEWAY_URL: GATEWAY_URL, AAR_TOOLS: ctx.family.tools.join(',') },
      resources: { memoryMb: config.resources.memory_mb, cpus: config.resources.cpus, pids: config.resources.pids },
      gatewaySocketDir: ctx.gatewaySocketDir,
      gatewaySocketName: ctx.gatewaySocketName,
      gatewayPort: GATEWAY_PORT,
      network: config.network,
      handover,
    });
  } catch (error) {
    throw new InfraError(`cannot start the container: ${(error as Error).message}`);
  }
}

const logFile = (stream: 'stdout' | 'stderr') => `${TRIAL_FILES.agentDir}/${stream}.log`;
const cutInto = (cuts: FileCut[], file: string) => (cut: { size: number; kept: number }) => void cuts.push({ file, size: cut.size, kept: cut.kept });

/** The agent's run under the timeout. Where the environment sees the output as it comes (docker), the logs grow while the agent runs. */
async function runAgent(ctx: TrialRunContext, staged: StagedTrial, prepared: PreparedAgent, env: TrialEnvironment, cuts: FileCut[]) {
  const live = {
    stdout: new LogFileSink(path.join(staged.agentDir, 'stdout.log'), { maxBytes: LOG_LIMIT_BYTES, onCut: cutInto(cuts, logFile('stdout')) }),
    stderr: new LogFileSink(path.join(staged.agentDir, 'stderr.log'), { maxBytes: LOG_LIMIT_BYTES, onCut: cutInto(cuts, logFile('stderr')) }),
  };
  let streamed = false;
  const work: TrialWork = {
    files: [{ path: '/app/instruction.md', content: prepared.instruction }, ...prepared.launch.files],
    command: prepared.launch.command,
    ...(prepared.launch.inProcess ? { inProcess: true } : {}),
    workdir: '/app',
    timeoutMs: ctx.config.timeout_s * 1000,
    collectFiles: [ANSWER],
    collectDirs: prepared.launch.logDirs,
    limits: { fileBytes: ANSWER_LIMIT_BYTES, logBytes: LOG_LIMIT_BYTES },
    onOutput: (stream, chunk) => {
      streamed = true;
      live[stream].write(chunk);
    },
  };
  const posted = await env.run(work).finally(() => {
    // Closed also when the run itself fails, so no file stays open.
    live.stdout.end();
    live.stderr.end();
  });
  await Promise.all([once(live.stdout, 'finish'), once(live.stderr, 'finish')]);
  const lostWrite = live.stdout.error ?? live.stderr.error;
  if (lostWrite) throw lostWrite;
  return { work, posted, streamed };
}

/** The output came back with the result only (a sandbox on another machine). */
function writeReturnedLogs(agentDir: string, result: TrialWorkResult, cuts: FileCut[]): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    const cut = result.cuts.find((c) => c.path === stream);
    if (cut) cutInto(cuts, logFile(stream))(cut);
    writeFileSync(path.join(agentDir, `${stream}.log`), cut ? Buffer.concat([result[stream], Buffer.from(cutMarker(cut.size, cut.kept))]) : result[stream]);
  }
}

/** Throws when the run's outcome is not the agent's: a lost log line, the job interrupted, the sandbox lost or the model never answering. */
function checkRunEnded(ctx: TrialRunContext, plan: TrialPlan, staged: StagedTrial, result: TrialWorkResult): void {
  const lostWrite = takeLogFailure(staged.toolLogPath) ?? takeLogFailure(staged.gatewayTrial.modelLogPath);
  if (lostWrite) throw lostWrite;
  // The staged folder must still be there (a removed job folder would be silently made anew, without its logs).
  accessSync(staged.toolLogPath);
  if (ctx.signal.aborted) throw new TrialAborted('job interrupted');
  if (result.fate?.outside) throw new InfraError(`the container was ${result.fate.outside} during the agent run`);
  if (!result.timedOut && result.exitCode === null) throw new InfraError('the agent process vanished without an exit status (container died?)');
  const usage = staged.gatewayTrial.usage;
  if (plan.adapter.usesModel && usage.turns > 0 && usage.answered === 0 && usage.upstreamFailures > 0) {
    throw new InfraError(`the model never answered (${usage.upstreamFailures} failed requests after ${usage.upstreamRetries} retries; see model_log.jsonl)`);
  }
}

/** The answer, and the agent's log folders written into agent/; what was cut of them joins `cuts`. */
function takeOutputs(agentDir: string, prepared: PreparedAgent, result: TrialWorkResult, cuts: FileCut[], refused: RefusedList): Buffer | null {
  const answer = result.files[ANSWER] ?? null;
  const answerCut = result.cuts.find((c) => c.path === ANSWER);
  if (answerCut) cuts.push({ file: TRIAL_FILES.answer, size: answerCut.size, kept: answerCut.kept, ...(answerCut.blank ? { blank: answerCut.blank } : {}) });
  writeCollectedDirs(agentDir, result.dirs, refused);
  const { logDirs } = prepared.launch;
  for (const c of result.cuts.filter((c) => c.path.startsWith('/') && c.path !== ANSWER)) {
    const dir = logDirs.find((d) => c.path.startsWith(d + '/'));
    if (dir) cuts.push({ file: `${TRIAL_FILES.agentDir}/${path.basename(dir)}/${c.path.slice(dir.length + 1)}`, size: c.size, kept: c.kept });
  }
  return answer;
}
