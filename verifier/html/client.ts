import { readFileSync } from 'node:fs';
import { packagePath } from '../../paths.js';

/** Where `npm run build` writes the page's script, bundled from verifier/html/browser/client.ts. */
export const CLIENT_BUNDLE = packagePath('dist', 'viewer-client.js');

let cached: string | undefined;

/** The page's script (one minified IIFE); `</script` cannot occur in it (esbuild escapes it in strings). */
export function clientScript(): string {
  if (cached === undefined) {
    try {
      cached = readFileSync(CLIENT_BUNDLE, 'utf8');
    } catch {
      throw new Error(`${CLIENT_BUNDLE}: missing; run \`npm run build\` (it bundles verifier/html/browser/client.ts)`);
    }
  }
  return cached;
}
