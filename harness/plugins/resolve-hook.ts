/**
 * A module resolution hook (node:module register, loaded by load.ts): a plugin's `import ... from 'aar-harness'`
 * is this package, the one loading it, whatever node_modules the plugin sits in (or none: a folder plugin). So
 * a plugin gets the same zod, types and helpers as the harness that registers its entries.
 */
let harness: string | undefined;

export function initialize(data: { harness: string }): void {
  harness = data.harness;
}

type Next = (specifier: string, context: unknown) => Promise<{ url: string }>;

export async function resolve(specifier: string, context: unknown, next: Next): Promise<{ url: string; shortCircuit?: boolean }> {
  if (specifier === 'aar-harness' && harness) return { url: harness, shortCircuit: true };
  return next(specifier, context);
}
