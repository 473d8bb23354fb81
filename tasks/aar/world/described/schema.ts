import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseYamlFile } from '../../../yaml-file.js';

/**
 * A described world: a small Wikipedia-like set of pages (infoboxes, prose, links) and the facts the
 * fake APIs answer from (places, countries, markets), in one YAML file. `WorldStore` (store.ts) serves it
 * through the tool service as a replay store, so a generation run or a trial can use it offline. Every
 * answer it gives is marked synthetic.
 */

const name = z.string().trim().min(1);
const number = z.number().finite();

const ClimateSchema = z.strictObject({
  /** Daily maximum temperature, deg C (a date moves it by up to +-4). */
  temp_max: number,
  /** Daily precipitation, mm. */
  precip: number.min(0),
  /** Daily snowfall, cm. */
  snow: number.min(0),
  /** Daily sunshine, s. */
  sunshine: number.min(0),
});

export const WorldPlaceSchema = z.strictObject({
  name,
  aliases: z.array(name).default([]),
  lat: number.min(-90).max(90),
  lng: number.min(-180).max(180),
  /** Meters above sea level. */
  elevation: number,
  /** The place's own rating (maps_search_places with the place's name alone). */
  rating: number.min(0).max(5).optional(),
  /** Points of interest near the place, by kind (`museums: 4` answers "museums near <place>"). */
  pois: z.record(z.string(), z.number().int().min(0)).default({}),
  climate: ClimateSchema,
});

export const WorldCountrySchema = z.strictObject({ name, aliases: z.array(name).default([]), population: z.number().int().positive(), area_km2: number.positive() });

export const WorldMarketSchema = z.strictObject({
  /** A stock ticker, or a Binance pair for a crypto asset. */
  symbol: z.string().regex(/^[A-Z0-9.]{1,12}$/, 'a symbol is upper-case letters and digits'),
  kind: z.enum(['stock', 'crypto']),
  /** The price around which a date's close is drawn. */
  price: number.positive(),
  volume: number.positive(),
  /** The first date with data (ISO); earlier dates are refused, as by a market that had not yet listed it. */
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'since is a date, YYYY-MM-DD'),
});

const SectionSchema = z
  .strictObject({ heading: name, text: z.string().optional(), items: z.array(z.string()).optional() })
  .refine((s) => s.text !== undefined || s.items !== undefined, { message: 'a section needs text or items' });

/** Text may link other pages as `[[Title]]` or `[[Title|shown text]]`. */
export const WorldPageSchema = z.strictObject({
  title: name,
  /** The first paragraph (its first words are usually the title in bold). */
  intro: z.string().min(1),
  infobox: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).default({}),
  sections: z.array(SectionSchema).default([]),
  language_editions: z.number().int().min(0).default(1),
});

export const WorldSchema = z.strictObject({
  name,
  /** Said on every page and in every store entry: what this world is. */
  note: name,
  /** Where pages live: titles are appended with spaces as underscores. */
  wiki: z.string().url().default('https://en.wikipedia.org/wiki/'),
  countries: z.array(WorldCountrySchema).default([]),
  places: z.array(WorldPlaceSchema).default([]),
  markets: z.array(WorldMarketSchema).default([]),
  pages: z.array(WorldPageSchema).min(1),
});

export type World = z.infer<typeof WorldSchema>;
export type WorldPage = z.infer<typeof WorldPageSchema>;
export type WorldPlace = z.infer<typeof WorldPlaceSchema>;

/** A world file read and checked; problems name the file, line and key. */
export function loadWorld(file: string): World {
  const world = parseYamlFile(file, readFileSync(file, 'utf8'), WorldSchema);
  const titles = new Set<string>();
  for (const [i, page] of world.pages.entries()) {
    if (titles.has(page.title)) throw new Error(`${file}: pages[${i}].title: "${page.title}" is used by another page`);
    titles.add(page.title);
  }
  return world;
}
