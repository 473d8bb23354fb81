import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../helpers/data.js';

/** Issue 35: a config naming the wrong family printed 30 (or 171) lines of schema errors, none saying which family the files are. */
describe("a job's tasks that its family cannot read", () => {
  const tmp = tempDir('aar-job-tasks-');
  afterAll(() => tmp.cleanup());

  const plan = (tasks: Record<string, unknown>, name: string) => {
    const file = path.join(tmp.dir, `${name}.yaml`);
    writeFileSync(file, stringify({ name, output: path.join(tmp.dir, 'jobs'), tasks, agents: [{ name: 'oracle' }] }));
    return { file, run: runAar(['plan', file]) };
  };
  const aarLines = (stderr: string) => stderr.split('\n').filter((l) => l.trim());

  test('AAR legs under `family: wikirace`: one line naming tasks.family and the fix', () => {
    const { file, run } = plan({ family: 'wikirace', path: EXAMPLES_DIR }, 'legs-as-wikirace');
    expect(run.status).toBe(1);
    expect(aarLines(run.stderr)).toEqual([`aar: ${file}: tasks.family: the task files under ${EXAMPLES_DIR} are aar tasks (3 read as such), not wikirace: remove \`tasks.family\` (aar is the default) or set it to aar`]);
  });

  test('WikiRace pairs with no family (AAR by default): one line saying to set `tasks.family: wikirace`', () => {
    const pairs = path.join(REPO_ROOT, 'tasks', 'examples-wikirace');
    const { file, run } = plan({ path: pairs }, 'pairs-as-aar');
    expect(run.status).toBe(1);
    expect(aarLines(run.stderr)).toEqual([`aar: ${file}: tasks.family: the task files under ${pairs} are wikirace tasks (18 read as such), not aar: set \`tasks.family: wikirace\``]);
  });

  test('files no family reads: the first ten problems and one line counting the rest', () => {
    const dir = path.join(tmp.dir, 'broken', 'v', 'easy');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 8; i++) writeFileSync(path.join(dir, `sample_00${i}.json`), JSON.stringify({ trail_id: `t${i}`, stops: 'none' }));
    const { file, run } = plan({ path: path.join(tmp.dir, 'broken') }, 'broken');
    expect(run.status).toBe(1);
    const lines = aarLines(run.stderr);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^aar: .*sample_000\.json: \$\.\w+: /);
    expect(lines[10]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: tasks: \\d+ more problems in \\d+ files not shown \\(8 task files of aar could not be read\\)$`));
  });
});
