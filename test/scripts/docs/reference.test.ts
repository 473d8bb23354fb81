/**
 * docs/reference/config.md and cli.md are generated (`npm run docs:gen`) from the job config's zod schema
 * and the commander program: the committed pages must be what the sources give now, and every key,
 * command, argument and option must have a description to print.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Command } from 'commander';
import { REPO_ROOT } from '../../helpers/data.js';
import { JobConfigSchema } from '../../../harness/config/schema.js';
import { FAMILY_NAMES, taskFamily } from '../../../tasks/registry.js';
import { ENVIRONMENT_NAMES } from '../../../harness/environments/registry.js';
import { AGENT_NAMES } from '../../../harness/agents/registry.js';
import { buildProgram } from '../../../harness/cli/program.js';
import { PACKAGE_ROOT } from '../../../paths.js';
import { referencePages, staleMessage } from '../../../scripts/docs/reference.mjs';

const FAMILIES = FAMILY_NAMES.map((name) => ({ name, filterSchema: taskFamily(name).filterSchema }));
const inputs = (schema: z.ZodType = JobConfigSchema) => ({
  schema,
  families: FAMILIES,
  environments: ENVIRONMENT_NAMES,
  agents: AGENT_NAMES,
  program: buildProgram(),
  packageRoot: PACKAGE_ROOT,
});

/** The first line where two texts part, for the failure message. */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')}, generated ${JSON.stringify(b[at] ?? '(end)')}`;
}

/** Every property of a JSON Schema (nested mappings and lists of mappings too) without a description, as dotted keys. */
function undescribed(schema: Record<string, any>, prefix = ''): string[] {
  const target = schema.type === 'array' ? schema.items : schema;
  return Object.entries((target?.properties ?? {}) as Record<string, Record<string, any>>).flatMap(([key, sub]) => [
    ...(sub.description ? [] : [`${prefix}${key}`]),
    ...undescribed(sub, `${prefix}${key}${sub.type === 'array' ? '[]' : ''}.`),
  ]);
}

const commandsOf = (command: Command): Command[] => command.commands.flatMap((c) => [c, ...commandsOf(c)]);

describe('the generated reference pages', () => {
  test('docs/reference/*.md are what npm run docs:gen writes from the current schema and program', () => {
    const pages: Map<string, string> = referencePages(inputs());
    expect([...pages.keys()]).toEqual(['docs/reference/config.md', 'docs/reference/cli.md']);
    for (const [file, fresh] of pages) {
      const committed = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      if (committed !== fresh) throw new Error(`${staleMessage(file)}; ${firstDifference(committed, fresh)}`);
    }
  });

  test('a key added to the schema shows in the config page, so the check above catches a page left behind', () => {
    const extended = JobConfigSchema.extend({ retention_days: z.number().int().min(1).default(30).describe('Days a job folder is kept.') });
    const page: string = referencePages(inputs(extended)).get('docs/reference/config.md');
    expect(page).toContain('| `retention_days` | integer ≥ 1 | `30` | Days a job folder is kept. |');
    expect(page).not.toBe(readFileSync(path.join(REPO_ROOT, 'docs/reference/config.md'), 'utf8'));
  });

  test('every config key has a description, the families\' filter keys too', () => {
    const jsonOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
    expect(undescribed(jsonOf(JobConfigSchema))).toEqual([]);
    for (const family of FAMILIES) expect([family.name, undescribed(jsonOf(family.filterSchema), 'tasks.')]).toEqual([family.name, []]);
  });

  test('every command, argument and option has help text', () => {
    const missing = commandsOf(buildProgram()).flatMap((c) => [
      ...(c.description() ? [] : [`command ${c.name()}`]),
      ...c.registeredArguments.filter((a) => !a.description).map((a) => `${c.name()} argument ${a.name()}`),
      ...c.options.filter((o) => !o.description).map((o) => `${c.name()} ${o.flags}`),
    ]);
    expect(missing).toEqual([]);
  });

  test('gen.mjs --check agrees with the built harness (npm test builds first)', () => {
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/docs/gen.mjs'), '--check'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
