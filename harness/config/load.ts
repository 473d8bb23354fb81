import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { InputError, type InputProblem } from '../../tasks/problems.js';
import { agentId, JobConfigSchema, type JobConfig } from './schema.js';

export interface LoadedConfig {
  file: string;
  text: string;
  config: JobConfig;
  /** `path` resolved against the config file's folder. */
  resolve: (p: string) => string;
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

/** Parses a job config's text (`text` null: flags alone). Problems name the file, line and column, and the key. */
export function parseJobConfig(file: string, text: string | null, overrides?: ConfigOverrides): JobConfig {
  if (text === null) return validate(file, null, new LineCounter(), {}, overrides);
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length) {
    throw new InputError(doc.errors.map((e) => ({ file: `${file}:${e.linePos?.[0].line ?? 1}:${e.linePos?.[0].col ?? 1}`, path: '', message: e.message.split('\n')[0] })));
  }
  if (!isMap(doc.contents)) throw new InputError([{ file, path: '', message: 'a job config is a YAML mapping (key: value lines)' }]);
  return validate(file, doc, counter, doc.toJS() as Record<string, unknown>, overrides);
}

function validate(file: string, doc: Document | null, counter: LineCounter, raw: Record<string, unknown>, overrides?: ConfigOverrides): JobConfig {
  overrides?.apply(raw);
  const parsed = JobConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems: InputProblem[] = parsed.error.issues.map((issue) => {
      const flag = overrides?.flagOf(issue.path);
      if (flag) return { file: 'command line', path: flag, message: issue.message };
      return { file: doc ? `${file}:${location(doc, counter, issue.path)}` : file, path: dotted(issue.path), message: issue.message };
    });
    throw new InputError(problems);
  }
  const ids = parsed.data.agents.map(agentId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new InputError([{ file, path: 'agents', message: `two agents have the id ${duplicate}; give one an id` }]);
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
  return { file, text, config: parseJobConfig(file, text, overrides), resolve: (p: string) => path.resolve(dir, p) };
}

/** A config from command-line flags alone: relative paths are relative to the working directory. */
export function configFromFlags(overrides: ConfigOverrides): LoadedConfig {
  const file = 'command line';
  return { file, text: '', config: parseJobConfig(file, null, overrides), resolve: (p: string) => path.resolve(p) };
}
