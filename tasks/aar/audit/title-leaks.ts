import type { Leg } from '../schema.js';

/**
 * Page titles written in a leg's riddle, by the rule of the AAR authors' `fix_title_leaks` script: the
 * seed's title and every stop page's title (from its URL), a trailing parenthetical removed, counted when
 * at least 6 characters long and found in the riddle ignoring case. Each leak also says whether the title
 * is several words and whether it stands as whole words (not inside a longer word).
 */

export interface TitleLeak {
  /** The stop's index; null for the seed title. */
  stop: number | null;
  title: string;
  /** The title as matched (its trailing parenthetical removed). */
  matched: string;
  multiWord: boolean;
  wholeWords: boolean;
}

const MIN_LENGTH = 6;

export function titleOfUrl(url: string): string | undefined {
  const at = url.indexOf('/wiki/');
  if (at < 0) return undefined;
  const raw = url.slice(at + '/wiki/'.length).split('#')[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  return decoded.replace(/_/g, ' ');
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The titles a riddle names, one per distinct title (case-insensitive). */
export function titleLeaks(leg: Pick<Leg, 'seed_title' | 'stops'>, riddle: string): TitleLeak[] {
  const lower = riddle.toLowerCase();
  const candidates: { stop: number | null; title: string }[] = [{ stop: null, title: leg.seed_title }];
  for (const stop of leg.stops) {
    const title = stop.page_url ? titleOfUrl(stop.page_url) : undefined;
    if (title) candidates.push({ stop: stop.index, title });
  }
  const seen = new Set<string>();
  const leaks: TitleLeak[] = [];
  for (const { stop, title } of candidates) {
    if (title.length < MIN_LENGTH) continue;
    const matched = title.replace(/\s*\([^)]+\)\s*$/, '').trim();
    if (matched.length < MIN_LENGTH || !lower.includes(matched.toLowerCase()) || seen.has(title.toLowerCase())) continue;
    seen.add(title.toLowerCase());
    const wholeWords = new RegExp(`(?<![\\p{L}\\p{N}])${escape(matched)}(?![\\p{L}\\p{N}])`, 'iu').test(riddle);
    leaks.push({ stop, title, matched, multiWord: /\s/.test(matched), wholeWords });
  }
  return leaks;
}

/** The titles a clue text must not contain (for writing clues): as titleLeaks matches them. */
export function forbiddenTitles(leg: Pick<Leg, 'seed_title' | 'stops'>): string[] {
  const titles = [leg.seed_title, ...leg.stops.flatMap((s) => (s.page_url ? [titleOfUrl(s.page_url) ?? ''] : []))];
  return [...new Set(titles.map((t) => t.replace(/\s*\([^)]+\)\s*$/, '').trim()).filter((t) => t.length >= MIN_LENGTH))];
}
