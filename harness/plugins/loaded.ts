import path from 'node:path';
import type { Plugin } from './api.js';

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

/** The plugins loaded so far, in order (a small module: the job config check reads it without loading the seams). */
export const LOADED_PLUGINS: LoadedPlugin[] = [];

const LOADED_SPECS = new Set<string>();
const specKey = (spec: string, base: string): string => `${path.resolve(base)}\0${spec}`;

/** Notes that a spec, given from this folder, is loaded. */
export const noteLoaded = (spec: string, base: string): void => void LOADED_SPECS.add(specKey(spec, base));

/** Whether a spec was loaded from this folder (a job config's `plugins:` entry is loaded before the config is checked). */
export const pluginLoaded = (spec: string, base: string): boolean => LOADED_SPECS.has(specKey(spec, base));
