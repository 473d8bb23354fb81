import { randomBytes } from 'node:crypto';
import { TRIAL_TOKEN_HEX_DIGITS, TRIAL_TOKEN_PREFIX } from '../../common/secrets.js';
import type { TrialToolSession } from '../../tools/session.js';
import type { GatewayCounts } from '../../trial/run-facts.js';
import { ModelLogBudget, ToolLogBudget } from './bounds.js';
import { GatewayHandover } from './handover.js';
import { requestBudgets, type LimitedRoute, type RequestBudgets, type RouteLimits } from './request-limits.js';

/** A trial the gateway serves: its token, where its logs go, and what it has used so far. */
export interface GatewayTrial {
  trialId: string;
  /** The task (an AAR leg) the trial runs: a replay store's answers of its own for it come first. */
  taskId?: string;
  token: string;
  /** Host path of the trial's tool_log.jsonl. */
  toolLogPath: string;
  /** Host path of the trial's model_log.jsonl (model traffic). */
  modelLogPath?: string;
  toolCalls: number;
  /** Set when the trial is unregistered: a request still in flight then writes nothing into its folder. */
  closed: boolean;
  /** What the trial's tool log holds so far, against its per-trial bounds. */
  toolLog: ToolLogBudget;
  /** The model log's lines of requests that are not turns, against their bound. */
  modelLog: ModelLogBudget;
  /** Its requests in flight by route, against the per-trial limits (request-limits.ts). */
  requests: RequestBudgets;
  /** Turns that passed the budget check and whose bodies are being read: the budget counts them already. */
  turnsReading: number;
  /** Free-form limits the model gateway enforces (steps, tokens, cost). */
  budget?: TrialBudget;
  usage: TrialUsage;
  /** Where a self-contained sandbox fetches its work and posts its result. */
  handover: GatewayHandover;
  /** The trial's own tool state on the host (a game), when its task family keeps one. */
  session?: TrialToolSession;
}

export interface TrialBudget {
  maxTurns?: number;
  maxTokens?: number;
  maxCostUsd?: number;
}

/**
 * The gateway's running counts for a trial: the run-facts counts (turns, budget, tokens, cost) and how the
 * upstream fared, which decides whether a trial the model never answered is an infrastructure error.
 */
export interface TrialUsage extends GatewayCounts {
  /** Turns the model answered: a 2xx response relayed whole, without an error inside its stream. */
  answered: number;
  /** Upstream failures retried, and requests that failed after all retries. */
  upstreamRetries: number;
  upstreamFailures: number;
  /** Model calls answered with an error status (or not at all): how many, the last status and the API's message. */
  modelErrors?: { calls: number; last_status: number; last_message: string };
}

/** Trial tokens: each trial gets a random one; a request without a registered token is refused. */
export class TrialRegistry {
  private readonly byToken = new Map<string, GatewayTrial>();

  /** `limits`: the per-trial request limits, by route, where they differ from REQUEST_LIMITS. */
  constructor(private readonly limits: Partial<Record<LimitedRoute, Partial<RouteLimits>>> = {}) {}

  register(trial: Pick<GatewayTrial, 'trialId' | 'taskId' | 'toolLogPath' | 'modelLogPath' | 'budget' | 'session'>): GatewayTrial {
    // Of the shape common/secrets.ts masks wherever it appears (TRIAL_TOKEN_PREFIX and 48 hex digits).
    const token = `${TRIAL_TOKEN_PREFIX}${randomBytes(TRIAL_TOKEN_HEX_DIGITS / 2).toString('hex')}`;
    const registered: GatewayTrial = {
      ...trial,
      token,
      toolCalls: 0,
      closed: false,
      toolLog: new ToolLogBudget(),
      modelLog: new ModelLogBudget(),
      requests: requestBudgets(this.limits),
      turnsReading: 0,
      handover: new GatewayHandover(),
      usage: { turns: 0, answered: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, budgetExceeded: false, upstreamRetries: 0, upstreamFailures: 0 },
    };
    this.byToken.set(token, registered);
    return registered;
  }

  lookup(token: string | undefined): GatewayTrial | undefined {
    return token ? this.byToken.get(token) : undefined;
  }

  unregister(token: string): GatewayTrial | undefined {
    const trial = this.byToken.get(token);
    this.byToken.delete(token);
    if (trial) trial.closed = true;
    trial?.handover.cancel('the trial is over');
    return trial;
  }

  get size(): number {
    return this.byToken.size;
  }
}
