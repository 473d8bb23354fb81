import { z } from 'zod';

/** One line of trajectory.jsonl: a move the game accepted, written on the host as it happens. */
export const TrajectoryLineSchema = z.strictObject({
  /** 1 for the first move. */
  step: z.number().int().positive(),
  from: z.string(),
  to: z.string(),
  /** How many links the agent was offered on `from`. */
  offered: z.number().int().nonnegative(),
  /** Seconds since the epoch. */
  ts: z.number(),
});
export type TrajectoryLine = z.infer<typeof TrajectoryLineSchema>;

export const trajectoryLineText = (line: TrajectoryLine): string => JSON.stringify(line) + '\n';

/** The moves of a trajectory file's text; a bad line is an error naming its line number and field. */
export function parseTrajectory(text: string, file = 'trajectory.jsonl'): TrajectoryLine[] {
  const lines: TrajectoryLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new Error(`${file}: line ${i + 1}: not JSON`);
    }
    const parsed = TrajectoryLineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${file}: line ${i + 1}: field ${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    lines.push(parsed.data);
  });
  return lines;
}
