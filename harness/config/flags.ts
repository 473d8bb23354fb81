import path from 'node:path';
import { InputError } from '../../tasks/problems.js';
import type { ConfigOverrides } from './load.js';

/**
 * `aar run` / `aar plan` flags laid over a job config (or making one alone). Each flag sets one config
 * key; the result goes through the same schema as a YAML file, and a problem names the flag that set it.
 */

/** An `--agent NAME` with the `--model` that followed it. */
export interface AgentFlag {
  name: string;
  model?: string;
}

export interface RunFlags {
  agents?: AgentFlag[];
  path?: string[];
  dataset?: string;
  variant?: string[];
  level?: string[];
  id?: string[];
  exclude?: string[];
  sample?: string;
  seed?: string;
  limit?: string;
  attempts?: string;
  concurrency?: string;
  memory?: string;
  cpus?: string;
  timeout?: string;
  toolsMode?: string;
  toolsStore?: string;
  name?: string;
  jobsDir?: string;
}

/** A number when the text is one, else the text itself, so the schema says what it expected. */
const numeric = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

/** `4096`, `4096m` or `4g` as megabytes (MiB); anything else as text, for the schema to refuse. */
function megabytes(text: string): number | string {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([mg]?)b?\s*$/i.exec(text);
  if (!m) return text;
  return Math.round(Number(m[1]) * (m[2].toLowerCase() === 'g' ? 1024 : 1));
}

const section = (raw: Record<string, unknown>, key: string): Record<string, unknown> => {
  const value = raw[key];
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return (raw[key] = {});
};

interface Setting {
  flag: string;
  /** Config key segments. */
  key: string[];
  value: unknown;
}

function settingsOf(flags: RunFlags, cwd: string): Setting[] {
  const out: Setting[] = [];
  const set = (flag: string, key: string[], value: unknown): void => {
    if (value !== undefined) out.push({ flag, key, value });
  };
  set('--agent', ['agents'], flags.agents?.length ? flags.agents.map((a) => (a.model ? { name: a.name, model: a.model } : { name: a.name })) : undefined);
  set('--path', ['tasks', 'path'], flags.path?.length ? (flags.path.length === 1 ? path.resolve(cwd, flags.path[0]) : flags.path.map((p) => path.resolve(cwd, p))) : undefined);
  set('--dataset', ['tasks', 'dataset'], flags.dataset);
  set('--variant', ['tasks', 'variants'], flags.variant);
  set('--level', ['tasks', 'levels'], flags.level);
  set('--id', ['tasks', 'ids'], flags.id);
  set('--exclude', ['tasks', 'exclude'], flags.exclude);
  if (flags.sample !== undefined) set('--sample', ['tasks', 'sample'], { n: numeric(flags.sample), seed: flags.seed === undefined ? 0 : numeric(flags.seed) });
  else if (flags.seed !== undefined) throw new InputError([{ file: 'command line', path: '--seed', message: 'seeds --sample N: give both' }]);
  set('--limit', ['tasks', 'limit'], flags.limit === undefined ? undefined : numeric(flags.limit));
  set('--attempts', ['attempts'], flags.attempts === undefined ? undefined : numeric(flags.attempts));
  set('--concurrency', ['concurrency'], flags.concurrency === undefined ? undefined : numeric(flags.concurrency));
  set('--memory', ['resources', 'memory_mb'], flags.memory === undefined ? undefined : megabytes(flags.memory));
  set('--cpus', ['resources', 'cpus'], flags.cpus === undefined ? undefined : numeric(flags.cpus));
  set('--timeout', ['timeout_s'], flags.timeout === undefined ? undefined : numeric(flags.timeout));
  set('--tools-mode', ['tools', 'mode'], flags.toolsMode);
  set('--tools-store', ['tools', 'store'], flags.toolsStore === undefined ? undefined : path.resolve(cwd, flags.toolsStore));
  set('--name', ['name'], flags.name);
  set('--jobs-dir', ['output'], flags.jobsDir === undefined ? undefined : path.resolve(cwd, flags.jobsDir));
  return out;
}

/**
 * The overrides of these flags. Paths given as flags are relative to the working directory (made
 * absolute here), as YAML paths are relative to their file. With no file, a missing `agents` or
 * `tasks` is reported as the flag that supplies it.
 */
export function runFlagOverrides(flags: RunFlags, options: { withFile: boolean; cwd?: string }): ConfigOverrides {
  const settings = settingsOf(flags, options.cwd ?? process.cwd());
  return {
    apply(raw) {
      for (const { key, value } of settings) {
        const parent = key.slice(0, -1).reduce(section, raw);
        parent[key.at(-1)!] = value;
        // --path and --dataset each replace the other that the config names.
        if (key.join('.') === 'tasks.path') delete parent.dataset;
        if (key.join('.') === 'tasks.dataset') delete parent.path;
      }
    },
    flagOf(segments) {
      const keys = segments.map(String);
      // The most specific setting whose key is a prefix of the problem's path (or the other way round).
      const hit = settings
        .filter((s) => s.key.every((k, i) => i >= keys.length || keys[i] === k))
        .sort((a, b) => b.key.length - a.key.length)[0];
      if (hit) return hit.flag;
      if (!options.withFile && keys[0] === 'agents') return '--agent';
      if (!options.withFile && keys[0] === 'tasks') return '--path';
      return undefined;
    },
  };
}
