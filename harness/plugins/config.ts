import path from 'node:path';
import { configPluginSpecs, loadJobConfig, type ConfigOverrides, type LoadedConfig } from '../config/load.js';
import { loadPlugins } from './load.js';

/** A job config file with its `plugins:` loaded first (from the config's folder), so the config is checked against their entries. */
export async function loadJobConfigWithPlugins(file: string, overrides?: ConfigOverrides): Promise<LoadedConfig> {
  await loadPlugins(configPluginSpecs(file), path.dirname(path.resolve(file)));
  return loadJobConfig(file, overrides);
}
