import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { InputError, type InputProblem } from '../../tasks/problems.js';
import { keyGist, knownKeysAt, nearKey } from './near-key.js';
import { agentFamilyProblem } from '../agents/registry.js';
import { agentId, familyNameOf, JobConfigSchema, type JobConfig } from './schema.js';

export interface LoadedConfig {
  file: string;
  text: string;
  config: JobConfig;
  /** `path` resolved against the config file's folder. */
  resolve: (p: string) => string;
  /** The command-line flag that set a config key, when one did (flags.ts). */
  flagOf?: (segments: readonly PropertyKey[]) => string | undefined;
}

function location(doc: Document, counter: LineCounter, segments: readonly PropertyKey[]): string {
  for (let n = segments.length; n >= 0; n--) {
    const node = doc.getIn(segments.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) {
      const { line, col } = counter.linePos(node.range[0]);
      return `${line}:${col}`;
    }
  }
  return '1:1';
}

const dotted = (segments: readonly PropertyKey[]): string =>
  segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('');

/** Command-line values laid over a config (see flags.ts): problems with them name the flag, not the file. */
export interface ConfigOverrides {
  apply(raw: Record<string, unknown>): void;
  /** The flag that set this config key (or a key above it), if any. */
  flagOf(segments: readonly PropertyKey[]): string | undefined;
}

/** Where a key (not its value) sits in the document, as `line:col`; undefined when it is not there. */
function keyLocation(doc: Document, counter: LineCounter, segments: readonly PropertyKey[], key: string): string | undefined {
  const parent = segments.length ? doc.getIn(segments as (string | number)[], true) : doc.contents;
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
  if (!range) return undefined;
  const { line, col } = counter.linePos(range[0]);
  return `${line}:${col}`;
}

/** The keys an "unrecognized keys" issue names (zod's own, or one a nested schema re-raised as text). */
function unknownKeysOf(issue: { code: string; message: string; keys?: string[] }): string[] {
  if (issue.code === 'unrecognized_keys' && issue.keys) return issue.keys;
  if (!/^Unrecognized keys?:/.test(issue.message)) return [];
  return [...issue.message.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/** Parses a job config's text (`text` null: flags alone). Problems name the file, line and column, and the key. */
export function parseJobConfig(file: string, text: string | null, overrides?: ConfigOverrides): JobConfig {
  if (text === null) return validate(file, null, new LineCounter(), {}, overrides);
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length) {
    throw new InputError(
      doc.errors.map((e) => {
        const { line, col } = counter.linePos(e.pos[0]);
        return { file: `${file}:${line}:${col}`, path: '', message: `YAML syntax: ${e.message.split('\n')[0]}` };
      }),
    );
  }
  if (!isMap(doc.contents)) throw new InputError([{ file, path: '', message: 'a job config is a YAML mapping (key: value lines)' }]);
  return validate(file, doc, counter, doc.toJS() as Record<string, unknown>, overrides);
}

/** `agents: [oracle]` (a name where a mapping goes): say how to write it. */
function agentHint(raw: Record<string, unknown>, segments: readonly PropertyKey[]): string | undefined {
  if (segments.length !== 2 || segments[0] !== 'agents' || typeof segments[1] !== 'number') return undefined;
  const value = (raw.agents as unknown[] | undefined)?.[segments[1]];
  if (typeof value !== 'string') return undefined;
  return `an agent is a mapping, not a name: write \`- name: ${value}\` (or \`{name: ${value}}\`)`;
}

function validate(file: string, doc: Document | null, counter: LineCounter, raw: Record<string, unknown>, overrides?: ConfigOverrides): JobConfig {
  overrides?.apply(raw);
  const parsed = JobConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const family = (raw.tasks as { family?: unknown } | undefined)?.family;
    const tasksFamily = typeof family === 'string' ? family : undefined;
    const at = (segments: readonly PropertyKey[], key?: string): string =>
      doc ? `${file}:${(key !== undefined ? keyLocation(doc, counter, segments, key) : undefined) ?? location(doc, counter, segments)}` : file;
    const problems: InputProblem[] = parsed.error.issues.flatMap((issue) => {
      const flag = overrides?.flagOf(issue.path);
      if (flag) return [{ file: 'command line', path: flag, message: issue.message }];
      const unknown = unknownKeysOf(issue as { code: string; message: string; keys?: string[] });
      if (!unknown.length) return [{ file: at(issue.path), path: dotted(issue.path), message: agentHint(raw, issue.path) ?? issue.message }];
      const known = knownKeysAt(issue.path, tasksFamily);
      return unknown.map((key) => {
        const near = nearKey(key, known);
        const gist = near ? keyGist([...issue.path, near], tasksFamily) : undefined;
        return {
          file: at(issue.path, key),
          path: dotted([...issue.path, key]),
          message: `unknown key${near ? `; did you mean ${near}${gist ? ` (${gist})` : ''}?` : known.length ? `; known keys: ${known.join(', ')}` : ''}`,
        };
      });
    });
    throw new InputError(problems);
  }
  const ids = parsed.data.agents.map(agentId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new InputError([{ file, path: 'agents', message: `two agents have the id ${duplicate}; give one an id` }]);
  const family = familyNameOf(parsed.data);
  const misplaced: InputProblem[] = parsed.data.agents.flatMap((agent, i) => {
    const message = agentFamilyProblem(agent.name, family);
    if (!message) return [];
    const flag = overrides?.flagOf(['agents', i, 'name']);
    return [flag ? { file: 'command line', path: flag, message } : { file: doc ? `${file}:${location(doc, counter, ['agents', i, 'name'])}` : file, path: `agents[${i}].name`, message }];
  });
  if (misplaced.length) throw new InputError(misplaced);
  return parsed.data;
}

export function loadJobConfig(file: string, overrides?: ConfigOverrides): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([{ file, path: '', message: `cannot read: ${(error as Error).message}` }]);
  }
  const dir = path.dirname(path.resolve(file));
  return { file, text, config: parseJobConfig(file, text, overrides), resolve: (p: string) => path.resolve(dir, p), ...(overrides ? { flagOf: overrides.flagOf } : {}) };
}

/** A config from command-line flags alone: relative paths are relative to the working directory. */
export function configFromFlags(overrides: ConfigOverrides): LoadedConfig {
  const file = 'command line';
  return { file, text: '', config: parseJobConfig(file, null, overrides), resolve: (p: string) => path.resolve(p), flagOf: overrides.flagOf };
}
