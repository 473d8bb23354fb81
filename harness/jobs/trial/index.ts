import { rmSync } from 'node:fs';
import { maskSecretsInFolder } from '../../../trial/mask-folder.js';
import { takeLogFailure } from '../../gateway/log-append.js';
import type { TrialPlan } from '../plan.js';
import { HostWriteFailure, isHostWriteError } from '../write-errors.js';
import { InfraError, NO_RETRIES, TrialAborted, type InfraRetries, type TrialOutcome, type TrialRunContext } from './context.js';
import { prepareAgent, stageTrial, type StagedTrial } from './prepare.js';
import { recordTrial } from './record.js';
import { runInSandbox, type SandboxHolder } from './sandbox.js';
import { scoreAndSeal } from './score.js';

export { InfraError, TrialAborted, type InfraRetries, type TrialOutcome, type TrialRunContext } from './context.js';
export { writeInfraFailure } from './infra-failure.js';
export { GATEWAY_PORT } from './prepare.js';

/**
 * Runs one trial once, in four phases (as Harbor's trial.py): prepare (the staged folder, the gateway's
 * registration, the instruction and the agent's launch), run in the sandbox (the agent under the timeout,
 * answer and logs out, the sandbox removed), record (trial.json's fields, leg and instruction written),
 * score (by the job's family, then sealed and put in place atomically). Throws InfraError when the
 * infrastructure fails and TrialAborted when the job is interrupted; agent failures are results.
 */
export async function runTrialOnce(ctx: TrialRunContext, plan: TrialPlan, retries: InfraRetries = NO_RETRIES): Promise<TrialOutcome> {
  const started = Date.now();
  const staged = stageTrial(ctx, plan);
  const sandbox: SandboxHolder = {};
  try {
    const prepared = await prepareAgent(ctx, plan, staged);
    const ran = await runInSandbox(ctx, plan, staged, prepared, sandbox);
    // The sandbox is gone: the gateway takes no more of this trial's requests before its files are recorded and sealed.
    endGatewayTrial(ctx, staged);
    const recorded = recordTrial(ctx, plan, staged, prepared, ran, started, retries);
    // No secret (a host key echoed back, the trial's own token in the agent's output) stays in what is scored and sealed.
    maskSecretsInFolder(staged.staging);
    return scoreAndSeal(ctx, plan, staged.staging, recorded);
  } catch (error) {
    rmSync(staged.staging, { recursive: true, force: true });
    if (isHostWriteError(error)) throw new HostWriteFailure(error);
    if (ctx.signal.aborted && !(error instanceof TrialAborted)) throw new TrialAborted('job interrupted');
    if (error instanceof TrialAborted || error instanceof InfraError) throw error;
    throw new InfraError((error as Error).message);
  } finally {
    endGatewayTrial(ctx, staged);
    if (sandbox.env) {
      ctx.running.delete(sandbox.env);
      ctx.retire(sandbox.env);
    }
  }
}

/** The trial's token is refused from now on, and a failed append to its logs forgotten (the runner has looked). Idempotent. */
function endGatewayTrial(ctx: TrialRunContext, staged: StagedTrial): void {
  ctx.gateway.trials.unregister(staged.gatewayTrial.token);
  takeLogFailure(staged.toolLogPath);
  takeLogFailure(staged.gatewayTrial.modelLogPath);
}
