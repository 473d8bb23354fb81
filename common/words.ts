/** Numbers in running text, the same everywhere: digits grouped, and the noun agreeing with the count. */

// Digits grouped by hand: toLocaleString loads the locale data on first use, a tenth of `aar plan`'s time.
export const int = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "1 trial", "2 trials", "1,400 legs"; `plural` names irregular plurals ("1 infrastructure error" is regular). */
export const plural = (n: number, noun: string, nouns = `${noun}s`): string => `${int(n)} ${n === 1 ? noun : nouns}`;
