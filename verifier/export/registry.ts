import { harborExporter } from './harbor/index.js';
import { inspectExporter } from './inspect/index.js';
import type { Exporter } from './types.js';

/** The formats of `aar export --format`, by name: adding one is a folder and a line here. */
export const EXPORTERS: readonly Exporter[] = [
  inspectExporter,
  harborExporter,
];

export function exporterNamed(name: string): Exporter {
  const found = EXPORTERS.find((e) => e.name === name);
  if (!found) throw new Error(`--format: expected one of ${EXPORTERS.map((e) => e.name).join(', ')}, got ${name}`);
  return found;
}
