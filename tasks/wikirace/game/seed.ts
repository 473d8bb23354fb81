import { createHash } from 'node:crypto';

/**
 * The seed of a game's offered links: from the pair's task id and the attempt alone, never from the agent,
 * the trial id or the job's seed. Every configuration, in this job or another, meets the same links in the
 * same order on the same page of the same pair and attempt, so a paired comparison compares one game;
 * attempt 2 draws anew. Recomputable from trial.json (`leg.id`, `attempt`).
 */
export function gameSeed(taskId: string, attempt: number): number {
  return createHash('sha256').update(`wikirace-offered-links\0${taskId}\0${attempt}`).digest().readUInt32BE(0);
}
