/** The file a WikiRace trial folder holds beside the generic ones: the game's moves, one line per step, written on the host by the game. */
export const WIKIRACE_TRIAL_FILES = { trajectory: 'trajectory.jsonl' } as const;
