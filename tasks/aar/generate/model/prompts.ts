/**
 * Each model step's prompt ends with its inputs as one JSON block between fixed markers, so that what a
 * model is shown is exactly what the rule form of the step works from, and the scripted test model can
 * answer by running that rule form on the block.
 */

export const DATA_KINDS = ['plan', 'extract', 'verbalize', 'correct', 'roundtrip', 'implied'] as const;
export type DataKind = (typeof DATA_KINDS)[number];

const OPEN = '<<DATA ';
const CLOSE = '<<END DATA>>';

export function dataBlock(kind: DataKind, payload: unknown): string {
  return `${OPEN}${kind}>>\n${JSON.stringify(payload)}\n${CLOSE}`;
}

/** The data block of a prompt, or undefined when it has none (or a broken one). */
export function readDataBlock(prompt: string): { kind: DataKind; payload: unknown } | undefined {
  const start = prompt.lastIndexOf(OPEN);
  if (start < 0) return undefined;
  const m = /^<<DATA ([a-z]+)>>\n([\s\S]*?)\n<<END DATA>>/.exec(prompt.slice(start));
  if (!m || !(DATA_KINDS as readonly string[]).includes(m[1]!)) return undefined;
  try {
    return { kind: m[1] as DataKind, payload: JSON.parse(m[2]!) };
  } catch {
    return undefined;
  }
}
