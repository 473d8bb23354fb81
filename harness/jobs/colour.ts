/**
 * Colour for people at a terminal: status words and the progress bar. None when NO_COLOR is set (and not
 * empty, as no-color.org says), when TERM is dumb, or when the stream is not a terminal (a file, a pipe, CI logs).
 */
export function colourOn(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36 } as const;
export type Colour = keyof typeof CODES;

/** `text` in `colour` when `on`, else as it is. */
export const paint = (text: string, colour: Colour, on: boolean): string => (on ? `\x1b[${CODES[colour]}m${text}\x1b[39m` : text);

/** The colour of a status word where it means the same in every command. */
const STATUS_COLOURS: Record<string, Colour> = { correct: 'green', wrong: 'red', infra_error: 'yellow', refused: 'red', MISSING: 'red' };

export const paintStatus = (word: string, on: boolean): string => (STATUS_COLOURS[word] ? paint(word, STATUS_COLOURS[word], on) : word);
