import { existsSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../../paths.js';
import { InputError } from '../../tasks/problems.js';
import { createProviderContext, missingToolKeys } from '../../tools/providers/registry.js';
import type { Endpoints } from '../../tools/providers/types.js';
import { ToolService } from '../../tools/service.js';
import { ResponseStore } from '../../tools/store/store.js';
import type { LoadedConfig } from '../config/load.js';
import { HARNESS_VERSION } from '../version.js';

/** How to run the same job on recorded tool answers instead, in the words of where the job came from. */
function replayHint(loaded: LoadedConfig): string {
  const examples = path.relative(process.cwd(), packagePath('tools', 'stores', 'examples')) || '.';
  const store = `a store recorded with --tools-mode record (${examples} serves the example legs)`;
  return loaded.file === 'command line'
    ? `replay instead: add --tools-mode replay --tools-store DIR, DIR being ${store}`
    : `replay instead: tools: {mode: replay, store: DIR}, DIR being ${store}`;
}

/** The job's tool service: its mode, store (with provenance when it records) and providers, checked first. */
export function jobToolService(loaded: LoadedConfig, offered: readonly string[]): ToolService {
  const { mode, store, output_limit: outputLimit, endpoints, allow_addresses: allowAddresses } = loaded.config.tools;
  if (mode !== 'live' && !store) throw new InputError([{ file: loaded.file, path: 'tools.store', message: `tool mode ${mode} needs a store folder` }]);
  if (mode === 'replay' && !existsSync(loaded.resolve(store!))) throw new InputError([{ file: loaded.file, path: 'tools.store', message: `${loaded.resolve(store!)}: no such store folder` }]);
  const providers = mode === 'replay' ? undefined : createProviderContext({ endpoints: endpoints as Partial<Endpoints>, httpOptions: { allowAddresses } });
  // Record and pinned modes write the store's provenance (harness version, endpoints) with their first entry.
  const recorder = providers && (mode === 'record' || mode === 'pinned') ? { harnessVersion: HARNESS_VERSION, mode, endpoints: { ...providers.endpoints } } : undefined;
  return new ToolService({
    mode,
    outputLimit,
    offered,
    ...(store ? { store: new ResponseStore(loaded.resolve(store), { recorder }) } : {}),
    ...(providers ? { providers } : {}),
  });
}

/** Live, record and pinned tools call the real services: refused before anything starts when their keys are not set. */
export function refuseMissingToolKeys(loaded: LoadedConfig, tools: readonly string[]): void {
  if (loaded.config.tools.mode === 'replay') return;
  const missing = missingToolKeys(tools);
  if (!missing.length) return;
  const needs = missing.map((m) => `${m.variable} (${m.tools.slice(0, 3).join(', ')}${m.tools.length > 3 ? ', ...' : ''})`).join(', ');
  throw new InputError([{ file: loaded.file, path: 'tools.mode', message: `${loaded.config.tools.mode} tools call the real services and need ${needs} in the host environment; set them, or ${replayHint(loaded)}` }]);
}
