import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LegSchema, type Leg, type Level } from './schema.js';
import { jsonSyntaxProblem, zodProblems, type InputProblem } from '../problems.js';
import { structureProblems } from './structure.js';
import { expandTaskPaths, findTaskFiles } from '../task-files.js';

/** A leg as loaded from disk, with the stable id it is known by in jobs and reports. */
export interface LoadedLeg {
  /** `<variant>/<level>/<name>`, e.g. `aar-dag/easy/sample_003`. */
  id: string;
  variant: string;
  level: Level | string;
  file: string;
  leg: Leg;
  /** The file's exact text: trial folders keep it byte for byte, and the verifier reads Python types from it. */
  source: Buffer;
}

export interface LoadResult {
  legs: LoadedLeg[];
  problems: InputProblem[];
}

/** Parses and checks one leg's text; `file` only names it in problems. */
export function parseLeg(file: string, text: string): { leg?: Leg; problems: InputProblem[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problems: [jsonSyntaxProblem(file, text, error)] };
  }
  const parsed = LegSchema.safeParse(raw);
  if (!parsed.success) return { problems: zodProblems(file, parsed.error) };
  const problems = structureProblems(file, parsed.data);
  return problems.length ? { problems } : { leg: parsed.data, problems };
}

/**
 * The id of a leg file: its last three path parts when they look like `<variant>/<level>/<name>.json`,
 * otherwise `<variant>/<level>/<name>` taken from the leg itself (variant `aar-dag` when stops carry depends_on).
 */
export function legIdentity(file: string, leg: Leg): Pick<LoadedLeg, 'id' | 'variant' | 'level'> {
  const parts = path.resolve(file).split(path.sep);
  const name = path.basename(file, '.json');
  const level = parts.at(-2) ?? '';
  const variant = parts.at(-3) ?? '';
  if (/^(easy|medium|hard|extreme)$/.test(level) && variant) {
    return { id: `${variant}/${level}/${name}`, variant, level };
  }
  const inferred = leg.stops.some((s) => s.depends_on !== undefined) ? 'aar-dag' : 'aar-linear';
  return { id: `${inferred}/${leg.difficulty.level}/${name}`, variant: inferred, level: leg.difficulty.level };
}

/** Synchronous on purpose: for a thousand small files it is about twice as fast as the thread pool. */
export function loadLegFile(file: string): LoadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { legs: [], problems: [{ file, path: '', message: `cannot read: ${(error as Error).message}` }] };
  }
  const { leg, problems } = parseLeg(file, bytes.toString('utf8'));
  if (!leg) return { legs: [], problems };
  return { legs: [{ ...legIdentity(file, leg), file, leg, source: bytes }], problems };
}

/** Every `*.json` under a folder, sorted (legs are task files). */
export { findTaskFiles as findLegFiles };

/** Loads legs from files and folder trees. Bad files become problems; good files still load. */
export async function loadLegs(paths: string | readonly string[]): Promise<LoadResult> {
  const { files, problems } = await expandTaskPaths(typeof paths === 'string' ? [paths] : paths);
  const legs: LoadedLeg[] = [];
  for (const r of files.map(loadLegFile)) {
    legs.push(...r.legs);
    problems.push(...r.problems);
  }
  const seen = new Map<string, string>();
  for (const l of legs) {
    const other = seen.get(l.id);
    if (other) problems.push({ file: l.file, path: '', message: `leg id ${l.id} is also used by ${other}` });
    seen.set(l.id, l.file);
  }
  legs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { legs, problems };
}
