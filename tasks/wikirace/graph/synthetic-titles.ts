import { seededRandom } from '../../../common/random.js';

const ONSETS = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 'st', 't', 'th', 'tr', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'y'];
const CODAS = ['', '', 'n', 'r', 'l', 's', 'th', 'nd', 'rk', 'sh', 'm'];
const SHAPES = [
  (t: string, w: string) => `${w} ${t}`,
  (t: string) => t,
  (t: string, w: string) => `${w} River`,
  (t: string, w: string) => `Battle of ${w}`,
  (t: string, w: string) => `${w} (album)`,
  (t: string, w: string) => `${w} ${t} (footballer)`,
  (t: string) => `History of ${t}`,
  (t: string, w: string) => `${t} ${w} Railway Station`,
  (t: string, w: string) => `Mount ${w}`,
  (t: string) => `${t}ian language`,
  (t: string, w: string) => `${w} University`,
  (t: string, w: string) => `${w} Province`,
  (t: string, w: string) => `List of ${t} ${w} episodes`,
  (t: string, w: string) => `${w}ism`,
  (t: string, w: string) => `${w} (novel)`,
  (t: string, w: string) => `${t} ${w} Cathedral`,
  // Shapes real titles have that trip parsers: a final period, a leading quote (Arsenal F.C.,
  // Washington, D.C., Apple Inc., "Weird Al" Yankovic).
  (t: string, w: string) => `${w} F.C.`,
  (t: string, w: string) => `${w}, D.C.`,
  (t: string, w: string) => `${t} ${w} Inc.`,
  (t: string, w: string) => `"${w}" ${t}`,
];

function word(random: () => number, syllables: number): string {
  let text = '';
  for (let s = 0; s < syllables; s++) {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    text += pick(ONSETS) + pick(VOWELS) + (s === syllables - 1 ? pick(CODAS) : '');
  }
  return text[0]!.toUpperCase() + text.slice(1);
}

/**
 * `count` distinct titles that read like page names ("Battle of Drousk", "Vaith River"); pages in the
 * same run of `topicSize` share a topic word, so neighbouring pages of a synthetic graph look related.
 */
export function syntheticTitles(count: number, seed: number, topicSize = 40): string[] {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const titles: string[] = [];
  let topic = '';
  for (let i = 0; i < count; i++) {
    if (i % topicSize === 0) topic = word(random, 2 + Math.floor(random() * 2));
    let title = '';
    for (let attempt = 0; attempt < 4 && (title === '' || seen.has(title)); attempt++) {
      title = SHAPES[Math.floor(random() * SHAPES.length)]!(topic, word(random, 1 + Math.floor(random() * 3)));
    }
    for (let n = 2; seen.has(title); n++) title = `${title.replace(/ \(\d+\)$/, '')} (${n})`;
    seen.add(title);
    titles.push(title);
  }
  return titles;
}
