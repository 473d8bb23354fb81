import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseYamlFile } from '../../yaml-file.js';

/**
 * Difficulty levels (AAR paper, appendix B; the reference README's table): each bounds the pit stops
 * before diamond augmentation (the finish line included), roadblocks, detours, diamonds (DAG variant),
 * the kinds of extraction and the crawl depth in link hops. A custom level is the same object in YAML.
 */

export const EXTRACTION_KINDS = ['infobox', 'prose', 'cross_section'] as const;
export type ExtractionKind = (typeof EXTRACTION_KINDS)[number];

const range = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([lo, hi]) => lo <= hi, { message: 'a range is [low, high] with low <= high' });

export const LevelSpecSchema = z
  .strictObject({
    /** The level's name: the legs' `difficulty.level` and their folder (`easy` ... `extreme` for the released levels). */
    name: z.string().regex(/^[a-z][a-z0-9_-]*$/, 'a level name is lower-case letters, digits, _ and -'),
    stops: range,
    roadblocks: range,
    detours: range,
    diamonds: range,
    extraction: z.array(z.enum(EXTRACTION_KINDS)).min(1),
    crawl_depth: z.number().int().min(0).max(5),
    /** Pages fetched at most by the crawl. */
    max_pages: z.number().int().positive().default(60),
  })
  .refine((l) => l.stops[1] >= 2 + l.roadblocks[0] + l.detours[0], { message: 'stops[1] must leave room for a page stop and the finish line beside the fewest roadblocks and detours', path: ['stops'] });

export type LevelSpec = z.infer<typeof LevelSpecSchema>;

export const LEVELS: Readonly<Record<'easy' | 'medium' | 'hard' | 'extreme', LevelSpec>> = {
  easy: { name: 'easy', stops: [3, 6], roadblocks: [1, 2], detours: [1, 2], diamonds: [1, 1], extraction: ['infobox', 'prose'], crawl_depth: 1, max_pages: 60 },
  medium: { name: 'medium', stops: [7, 12], roadblocks: [2, 4], detours: [2, 3], diamonds: [1, 2], extraction: ['infobox', 'prose', 'cross_section'], crawl_depth: 2, max_pages: 60 },
  hard: { name: 'hard', stops: [13, 16], roadblocks: [4, 5], detours: [3, 4], diamonds: [2, 3], extraction: ['infobox', 'prose', 'cross_section'], crawl_depth: 3, max_pages: 60 },
  extreme: { name: 'extreme', stops: [17, 21], roadblocks: [5, 7], detours: [4, 6], diamonds: [3, 5], extraction: ['infobox', 'prose', 'cross_section'], crawl_depth: 3, max_pages: 60 },
};

/** A released level by name, or undefined. */
export const builtInLevel = (name: string): LevelSpec | undefined => (Object.hasOwn(LEVELS, name) ? LEVELS[name as keyof typeof LEVELS] : undefined);

const LevelFileSchema = z.union([z.strictObject({ levels: z.array(LevelSpecSchema).min(1) }), LevelSpecSchema]);

/** `--level-file`: one level, or `levels:` a list of them. */
export function loadLevelFile(file: string): LevelSpec[] {
  const parsed = parseYamlFile(file, readFileSync(file, 'utf8'), LevelFileSchema);
  return 'levels' in parsed ? parsed.levels : [parsed];
}
