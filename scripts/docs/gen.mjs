// `npm run docs:gen`: writes docs/reference/config.md and cli.md from the built harness (the npm script
// builds first). `--check` writes nothing and exits 1 naming each page that differs.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { referencePages, staleMessage } from './reference.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = (file) => import(path.join(root, 'dist', file));
const { JobConfigSchema } = await built('harness/config/schema.js');
const { FAMILY_NAMES, taskFamily } = await built('tasks/registry.js');
const { ENVIRONMENT_NAMES } = await built('harness/environments/registry.js');
const { AGENT_NAMES } = await built('harness/agents/registry.js');
const { buildProgram } = await built('harness/cli/program.js');
const { PACKAGE_ROOT } = await built('paths.js');

const pages = referencePages({
  schema: JobConfigSchema,
  families: FAMILY_NAMES.map((name) => ({ name, filterSchema: taskFamily(name).filterSchema })),
  environments: ENVIRONMENT_NAMES,
  agents: AGENT_NAMES,
  program: buildProgram(),
  packageRoot: PACKAGE_ROOT,
});
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, text] of pages) {
  const target = path.join(root, file);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (current === text) continue;
  if (check) {
    console.error(staleMessage(file));
    stale++;
  } else {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`wrote ${file}`);
  }
}
if (stale) process.exitCode = 1;
