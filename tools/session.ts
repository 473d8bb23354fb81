import type { ToolResult } from './providers/types.js';

/**
 * Tools whose state belongs to one trial and lives on the host (a WikiRace game): the task family opens a
 * session when the trial starts, the gateway keeps it with the trial's token and sends it the calls of
 * tools placed in `trial-session`, with arguments already checked by the tool's schema. The agent only
 * ever sees what `call` returns, so it cannot change the state except through these calls.
 */
export interface TrialToolSession {
  call(tool: string, args: Record<string, unknown>): ToolResult;
}
