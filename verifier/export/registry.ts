import { harborExporter } from './harbor/index.js';
import { inspectExporter } from './inspect/index.js';
import { Registry } from '../../common/registry.js';
import type { Exporter } from './types.js';

/** The formats of `aar export --format`, by name: adding one is a folder and a line here, or a plugin's entry. */
export const EXPORTER_REGISTRY = new Registry<Exporter>('export format', (e) => e.name);
EXPORTER_REGISTRY.add(inspectExporter);
EXPORTER_REGISTRY.add(harborExporter);

/** The exporters in registration order (live). */
export const EXPORTERS: readonly Exporter[] = EXPORTER_REGISTRY.entries;

export function exporterNamed(name: string): Exporter {
  const found = EXPORTER_REGISTRY.find(name);
  if (!found) throw new Error(`--format: expected one of ${EXPORTERS.map((e) => e.name).join(', ')}, got ${name}`);
  return found;
}
