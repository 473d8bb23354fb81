import path from 'node:path';
import { readTrialText, TRIAL_FILES } from 'aar-harness';
import { TaskSchema, walk } from './chain.js';

/**
 * The keychain verifier, from a stored trial's files alone: success when answer.txt (trimmed) is the chain's
 * value; `visited` is the share of the chain's keys the tool log shows looked up (the gateway wrote the log,
 * the agent cannot forge it); `calls` counts the lookups.
 */
export function scoreTrial({ dir, record }) {
  const source = readTrialText(dir, TRIAL_FILES.leg);
  if (source === null) throw new Error(`${path.join(dir, TRIAL_FILES.leg)}: missing`);
  const task = TaskSchema.parse(JSON.parse(source));
  const { keys, answer: expected } = walk(task);
  const answer = readTrialText(dir, TRIAL_FILES.answer)?.trim() ?? null;
  const looked = new Set();
  let calls = 0;
  for (const line of (readTrialText(dir, TRIAL_FILES.toolLog) ?? '').split('\n')) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry?.tool !== 'keychain_get') continue;
    calls++;
    if (entry.success === true && typeof entry.args?.key === 'string') looked.add(entry.args.key);
  }
  const visited = keys.filter((k) => looked.has(k)).length / keys.length;
  return { success: answer === expected, visited: Math.round(visited * 1e6) / 1e6, calls, answer, expected, status: record.status };
}

export const scoreToJson = (score) => `${JSON.stringify(score, null, 2)}\n`;
