/** What a player reads off the game's state text (game.ts writes it): the pages, the links, whether it is over. */
export interface ShownState {
  target: string | null;
  current: string | null;
  visited: string[];
  links: string[];
  over: boolean;
  /** "Steps used: N of LIMIT": the moves made and the game's move limit (null when not shown). */
  moves: number | null;
  moveLimit: number | null;
}

const field = (text: string, name: string): string | null => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1] ?? null;

export function readStateText(text: string): ShownState {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => /^Available links \(\d+\):$/.test(l));
  const used = /^(\d+) of (\d+)$/.exec(field(text, 'Steps used') ?? '');
  return {
    target: field(text, 'Target page'),
    current: field(text, 'Current page'),
    visited: (field(text, 'Visited so far') ?? '').split(' -> ').filter(Boolean),
    links: header < 0 ? [] : lines.slice(header + 1).filter((l) => l !== ''),
    over: /^The game is over/m.test(text),
    moves: used ? Number(used[1]) : null,
    moveLimit: used ? Number(used[2]) : null,
  };
}
