import { renderCliReference } from './cli-reference.mjs';
import { renderConfigReference } from './config-reference.mjs';

/**
 * The generated reference pages, by repository path. The inputs are the harness's own objects: gen.mjs
 * passes the built ones (dist/), the test that keeps the committed pages current passes the sources.
 */
export function referencePages({ schema, families, environments, agents, program, packageRoot }) {
  const known = { 'tasks.family': families.map((f) => f.name), environment: environments, 'agents[].name': agents };
  return new Map([
    ['docs/reference/config.md', renderConfigReference({ schema, families, known })],
    ['docs/reference/cli.md', renderCliReference(program, { packageRoot })],
  ]);
}

/** The one line a stale page gets, in the test and in `gen.mjs --check`. */
export const staleMessage = (file) => `${file} is out of date: run npm run docs:gen (it writes the page from the current schema and program)`;
