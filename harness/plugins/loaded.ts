import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from './api.js';

/*
 * The plugins loaded in this process, and how a spec names one (a small module: the job config check reads it
 * without loading the seams).
 */

/** A plugin loaded in this process: where from, and under which `from` its entries are registered. */
export interface LoadedPlugin {
  name: string;
  version: string | null;
  /** As given (`plugins:` entry or `--plugin` value), and the folder it was resolved from. */
  spec: string;
  base: string;
  /** Its module file. */
  file: string;
  from: string;
  plugin: Plugin;
}

/** The plugins loaded so far, in order. */
export const LOADED_PLUGINS: LoadedPlugin[] = [];

const isPath = (spec: string): boolean => spec.startsWith('.') || path.isAbsolute(spec) || spec.includes(path.sep) && !spec.startsWith('@');

/** A package's module entry: `exports` (its `.`: import, default), else `main`, else index.js. */
function packageEntry(dir: string): string {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { exports?: unknown; main?: string };
  let exported = pkg.exports;
  if (exported && typeof exported === 'object' && '.' in exported) exported = (exported as Record<string, unknown>)['.'];
  for (let i = 0; exported && typeof exported === 'object' && i < 4; i++) {
    const conditions = exported as Record<string, unknown>;
    exported = conditions.import ?? conditions.default ?? conditions.node;
  }
  return path.resolve(dir, typeof exported === 'string' ? exported : pkg.main ?? 'index.js');
}

/** The module file a spec names, from `base` (a folder). */
export function resolvePlugin(spec: string, base: string): string {
  if (isPath(spec)) {
    const target = path.resolve(base, spec);
    if (!existsSync(target)) throw new Error(`no such file or folder ${target}`);
    return statSync(target).isDirectory() ? packageEntry(target) : target;
  }
  for (let dir = path.resolve(base); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...spec.split('/'));
    if (existsSync(path.join(candidate, 'package.json'))) return packageEntry(candidate);
    if (path.dirname(dir) === dir) throw new Error(`no package ${spec} in node_modules above ${base} (npm install it, or give a path)`);
  }
}

/** The package.json's name and version of the package a module file is in (the nearest above it), if any. */
export function packageOf(file: string): { name?: string; version?: string } | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Whether the plugin a spec names from this folder is loaded (a job config's `plugins:` are loaded before the config is checked). */
export function pluginLoaded(spec: string, base: string): boolean {
  try {
    const file = resolvePlugin(spec, base);
    return LOADED_PLUGINS.some((p) => p.file === file);
  } catch {
    return false;
  }
}
