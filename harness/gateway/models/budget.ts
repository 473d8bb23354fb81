import type { ServerResponse } from 'node:http';
import type { GatewayTrial } from '../trials.js';
import { sendModelError, type ModelProvider } from './routes.js';

export const BUDGET_ERROR_CODE = 'aar_budget_exhausted';

/**
 * Why the next model turn of a trial is refused, or undefined when it may go ahead: the turns taken (with
 * those whose bodies are still being read) reach maxTurns, the tokens used (input + output, input including
 * cached tokens) reach maxTokens, or the cost reaches maxCostUsd. Checked from the route alone, before the
 * request's body is read, so a refused request costs no memory and a trial never gets more turns.
 */
export function budgetRefusal(trial: GatewayTrial): string | undefined {
  const { budget, usage } = trial;
  if (!budget) return undefined;
  const suffix = 'no further model requests are allowed in this AAR trial';
  const turns = usage.turns + trial.turnsReading;
  if (budget.maxTurns !== undefined && turns >= budget.maxTurns) {
    return `AAR step budget used up: ${turns} of ${budget.maxTurns} model turns taken; ${suffix}`;
  }
  const tokens = usage.inputTokens + usage.outputTokens;
  if (budget.maxTokens !== undefined && tokens >= budget.maxTokens) {
    return `AAR token budget used up: ${tokens} of ${budget.maxTokens} tokens used; ${suffix}`;
  }
  if (budget.maxCostUsd !== undefined && usage.costUsd >= budget.maxCostUsd) {
    return `AAR cost budget used up: $${usage.costUsd.toFixed(6)} of $${budget.maxCostUsd} spent; ${suffix}`;
  }
  return undefined;
}

/**
 * HTTP 400 in the protocol's own error shape: an invalid request, which the frameworks show and do not
 * retry (they retry 429 and 5xx only).
 */
export function sendBudgetError(res: ServerResponse, provider: ModelProvider, message: string): void {
  sendModelError(res, provider, 400, 'invalid_request_error', message, BUDGET_ERROR_CODE);
}
