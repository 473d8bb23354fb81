import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseYamlFile } from '../../yaml-file.js';
import { builtInLevel, LevelSpecSchema, loadLevelFile, type LevelSpec } from './levels.js';

/** The model steps of the pipeline; each runs without a model too (its rule form, labelled in provenance). */
export const MODEL_STEPS = ['plan', 'extract', 'verbalize', 'roundtrip'] as const;
export type ModelStep = (typeof MODEL_STEPS)[number];
export const VARIANTS = ['linear', 'dag'] as const;
export type Variant = (typeof VARIANTS)[number];
export const variantFolder = (v: Variant): string => `aar-${v}`;

const SeedsSchema = z
  .strictObject({
    /** Seed article URLs, used in turn. */
    urls: z.array(z.string().url()).optional(),
    /** A file of seed URLs, one a line (`#` comments), relative to the config. */
    file: z.string().optional(),
    /** Draw seeds from MediaWiki's random API (through fetch_webpage), this many candidates per leg at most. */
    random: z.number().int().positive().optional(),
  })
  .refine((s) => [s.urls, s.file, s.random].filter((x) => x !== undefined).length === 1, { message: 'give exactly one of urls, file and random' });

const ModelSchema = z.strictObject({
  /** The model name sent in each request. */
  name: z.string().min(1),
  /** The wire API to the gateway: openai (Chat Completions) or anthropic (Messages). */
  api: z.enum(['openai', 'anthropic']).default('openai'),
  /** `scripted`: the generator's own rule-answering model server (offline, model/rule-server.ts); absent: `models:` decides. */
  provider: z.enum(['scripted']).optional(),
  /** The steps that ask the model; the others run their rule form. */
  steps: z.array(z.enum(MODEL_STEPS)).default([...MODEL_STEPS]),
  /** Output tokens per request. */
  max_tokens: z.number().int().positive().default(1024),
});

export const GenerateConfigSchema = z.strictObject({
  seeds: SeedsSchema,
  /** Level names (easy, medium, hard, extreme) or levels written out (levels.ts). */
  levels: z.array(z.union([z.string(), LevelSpecSchema])).min(1).default(['easy', 'medium', 'hard', 'extreme']),
  variants: z.array(z.enum(VARIANTS)).min(1).default(['linear', 'dag']),
  legs_per_level: z.number().int().positive().default(5),
  /** Attempts per leg wanted before the level is given up (each attempt: a seed, a crawl, a plan...). */
  attempts_per_leg: z.number().int().positive().default(4),
  /** Base of every random choice: the same config and seed give the same legs. */
  seed: z.number().int().min(0).default(1),
  tools: z
    .strictObject({
      mode: z.enum(['live', 'record', 'replay', 'pinned']).default('replay'),
      /** The record/replay store (record: written; replay: read; pinned: read, and a miss called and recorded). */
      store: z.string().optional(),
      /** A described world (YAML) served as the replay store (tasks/aar/world/described/). */
      world: z.string().optional(),
      endpoints: z.record(z.string(), z.string()).default({}),
      allow_addresses: z.array(z.string()).optional(),
      /** Answers are cut here as for an agent (the paper's 8,000): the crawl reads a page as an agent will. */
      output_limit: z.number().int().positive().default(8000),
    })
    .default({ mode: 'replay', endpoints: {}, output_limit: 8000 }),
  /** Absent: no model (plan by rule, infobox and section extraction, template verbalizer, rule round-trip). */
  model: ModelSchema.optional(),
  /** The model gateway's settings, as a job config's `models:` (base URLs, provider local or openai-compatible, prices...). */
  models: z.record(z.string(), z.unknown()).optional(),
  verbalize: z
    .strictObject({ min_alignment: z.number().min(0).max(1).default(0.7), attempts: z.number().int().positive().default(3) })
    .default({ min_alignment: 0.7, attempts: 3 }),
  /** Released legs to measure Jaccard similarity against (default: the released data, when found). */
  reference: z.string().optional(),
});

export type GenerateConfig = z.infer<typeof GenerateConfigSchema>;

/** A config read, its paths resolved against its folder, its levels and seeds made concrete. */
export interface LoadedGenerateConfig {
  file: string;
  config: GenerateConfig;
  levels: LevelSpec[];
  seedUrls: string[];
  resolve: (p: string) => string;
}

/** What the command line sets over the config. */
export interface GenerateFlags {
  seedUrl?: string[];
  seeds?: string;
  random?: number;
  levelFile?: string;
  legsPerLevel?: number;
  variants?: string[];
  levels?: string[];
  seed?: number;
  /** The model steps (`none`: no model at all, whatever the config says). */
  modelSteps?: string[];
}

/** The file as written: its seeds may come from the command line instead. */
const GenerateFileSchema = GenerateConfigSchema.extend({ seeds: SeedsSchema.optional() });

export function loadGenerateConfig(file: string, flags: GenerateFlags = {}): LoadedGenerateConfig {
  const written = parseYamlFile(file, readFileSync(file, 'utf8'), GenerateFileSchema);
  const seedFlags = [flags.seedUrl, flags.seeds, flags.random].filter((x) => x !== undefined);
  if (seedFlags.length > 1) throw new Error('give at most one of --seed-url, --seeds and --random');
  const seeds = flags.seedUrl ? { urls: flags.seedUrl } : flags.seeds ? { file: path.resolve(flags.seeds) } : flags.random !== undefined ? { random: flags.random } : written.seeds;
  if (!seeds) throw new Error(`${file}: seeds: none given (write seeds: {urls | file | random}, or use --seed-url, --seeds or --random)`);
  const overrides = { legs_per_level: flags.legsPerLevel, variants: flags.variants, levels: flags.levels, seed: flags.seed };
  const model = flags.modelSteps === undefined ? written.model : flags.modelSteps.join() === 'none' ? undefined : written.model && { ...written.model, steps: flags.modelSteps };
  if (flags.modelSteps && flags.modelSteps.join() !== 'none' && !written.model) throw new Error(`--model-steps: ${file} names no model`);
  const parsed = GenerateConfigSchema.safeParse({ ...written, seeds, model, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`command line: ${issue.path.map(String).join('.') || '(top)'}: ${issue.message}`);
  }
  const config = parsed.data;
  if (config.tools.mode === 'pinned' && (!config.tools.store || config.tools.world)) throw new Error(`${file}: tools: mode pinned needs tools.store (the pinned world: read, misses called and recorded into it) and no tools.world`);
  const base = path.dirname(path.resolve(file));
  const resolve = (p: string): string => path.resolve(base, p);
  const levels = flags.levelFile
    ? loadLevelFile(flags.levelFile)
    : config.levels.map((l, i) => {
        if (typeof l !== 'string') return l;
        const level = builtInLevel(l);
        if (!level) throw new Error(`${file}: levels[${i}]: unknown level "${l}" (easy, medium, hard, extreme, or a level written out)`);
        return level;
      });
  const names = levels.map((l) => l.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`${file}: levels: "${twice}" is listed twice`);
  return { file, config, levels, seedUrls: seedUrlsOf(config, resolve, file), resolve };
}

function seedUrlsOf(config: GenerateConfig, resolve: (p: string) => string, file: string): string[] {
  if (config.seeds.urls) return config.seeds.urls;
  if (!config.seeds.file) return [];
  const seedFile = resolve(config.seeds.file);
  let text: string;
  try {
    text = readFileSync(seedFile, 'utf8');
  } catch (error) {
    throw new Error(`${file}: seeds.file: cannot read ${seedFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const urls = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (!urls.length) throw new Error(`${seedFile}: no seed URL in it (one a line; # starts a comment)`);
  const bad = urls.find((u) => !/^https?:\/\//.test(u));
  if (bad) throw new Error(`${seedFile}: "${bad}" is not an http(s) URL`);
  return urls;
}
