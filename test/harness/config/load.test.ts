import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadJobConfig, parseJobConfig } from '../../../harness/config/load.js';
import { agentId, familyNameOf } from '../../../harness/config/schema.js';
import { configProblems as problemsOf } from '../../helpers/config-problems.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';


describe('job configs', () => {
  test('defaults fill everything but the task path and the agents', () => {
    const c = parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: oracle\n');
    expect(c).toMatchObject({
      name: 'job',
      output: 'jobs',
      attempts: 1,
      timeout_s: 600,
      budget: { steps: 'auto' },
      concurrency: 'auto',
      resources: { memory_mb: 10240, cpus: 1, pids: 1024 },
      environment: 'docker',
      network: 'none',
      tools: { mode: 'live', output_limit: 8000 },
      images: { base: 'auto' },
      infra_retries: 2,
    });
    expect(agentId(c.agents[0])).toBe('oracle');
    expect(agentId({ ...c.agents[0], name: 'codex', model: 'openai/gpt-5.4' })).toBe('codex@openai-gpt-5.4');
  });

  test('tasks.family names a known task family (default aar) and the family checks its own filter keys', () => {
    const plain = parseJobConfig('job.yaml', 'tasks:\n  path: legs\n  levels: [easy]\nagents:\n  - name: oracle\n');
    expect(familyNameOf(plain)).toBe('aar');
    // Not written into the parsed config when not given: older job folders keep their fingerprint.
    expect(plain.tasks).toEqual({ levels: ['easy'], path: 'legs' });
    const named = parseJobConfig('job.yaml', 'tasks:\n  family: aar\n  path: legs\nagents:\n  - name: oracle\n');
    expect(familyNameOf(named)).toBe('aar');
    expect(problemsOf('tasks:\n  family: chess\n  path: legs\nagents:\n  - name: oracle\n')).toEqual([
      "job.yaml:2:11: tasks.family: unknown task family 'chess'; known: aar, wikirace",
    ]);
    expect(problemsOf('tasks:\n  family: aar\n  path: legs\n  levels: [trivial]\n  splits: [easy]\nagents:\n  - name: oracle\n')).toEqual([
      expect.stringMatching(/^job\.yaml:4:\d+: tasks\.levels\[0\]: /),
      expect.stringMatching(/^job\.yaml:5:3: tasks\.splits: unknown key; known keys: family, path, dataset, variants, levels, /),
    ]);
  });

  test('errors name the file, line and column, and the key', () => {
    expect(problemsOf('tasks:\n  path: legs\nagents:\n  - name: oracle\n    modle: x\ntimeout_s: soon\n')).toEqual([
      'job.yaml:5:5: agents[0].modle: unknown key; did you mean model (the model the agent asks for)?',
      expect.stringMatching(/^job\.yaml:6:12: timeout_s: .*number/i),
    ]);
    expect(problemsOf('agents: []\n')).toEqual([expect.stringMatching(/^job\.yaml:1:1: tasks: /), expect.stringMatching(/^job\.yaml:1:9: agents: /)]);
    expect(problemsOf('tasks: {path: x}\nagents:\n  - {name: oracle}\n  - {name: oracle}\n')).toEqual(['job.yaml: agents: two agents have the id oracle; give one an id']);
    expect(problemsOf('tasks: [unclosed\n')[0]).toMatch(/^job\.yaml:\d+:\d+: /);
    expect(problemsOf('- a list\n')).toEqual(['job.yaml: a job config is a YAML mapping (key: value lines)']);
  });

  test("job names are one folder of their own under output: not '.', '..', hidden, or with a path separator", () => {
    const config = (name: string) => `tasks: {path: x}\nagents: [{name: oracle}]\nname: ${JSON.stringify(name)}\n`;
    for (const name of ['.', '..', '.hidden', '../jobs', 'a/b', 'a\\b', '/abs', 'a b', '', 'x'.repeat(101)]) {
      expect(problemsOf(config(name))).toEqual([`job.yaml:3:7: name: use letters, digits and . _ - only, not starting with a dot (a folder of its own under output), at most 100 characters`]);
    }
    for (const name of ['job', 'run.2', '2026-11-26_a', '_x', 'x'.repeat(100)]) expect(problemsOf(config(name))).toEqual([]);
  });

  test('YAML syntax errors and unknown keys name the real line and column, and suggest the near key', () => {
    expect(problemsOf('tasks: {path: x}\nagents: [{name: oracle}]\ntimeout: 5\n')).toEqual(['job.yaml:3:1: timeout: unknown key; did you mean timeout_s (wall-clock limit of one agent run, in seconds)?']);
    expect(problemsOf('tasks: {path: x}\nagents: [{name: oracle}]\nconcurency: 5\nzzz: 1\n')).toEqual([
      'job.yaml:3:1: concurency: unknown key; did you mean concurrency (trials at a time)?',
      expect.stringMatching(/^job\.yaml:4:1: zzz: unknown key; known keys: name, output, tasks, agents, /),
    ]);
    expect(problemsOf('tasks: {path: x}\nagents: [{name: oracle}]\nresources:\n  memory: 512\n')).toEqual(["job.yaml:4:3: resources.memory: unknown key; did you mean memory_mb (memory limit of each trial's container, in MiB)?"]);
    expect(problemsOf('tasks: {path: x}\nagents: [{name: oracle}]\ntools: {mode: replay, stor: s}\n')).toEqual(['job.yaml:3:23: tools.stor: unknown key; did you mean store (the record/replay store folder)?']);
    // The gist is the start of the key's description in the schema, the one docs/reference/config.md prints; a family's filter keys have theirs.
    expect(problemsOf('tasks: {path: x, levls: [easy]}\nagents: [{name: oracle}]\n')).toEqual(['job.yaml:1:18: tasks.levls: unknown key; did you mean levels (only legs of these difficulty levels)?']);
    expect(problemsOf('tasks: {family: wikirace, path: x, split: [easy]}\nagents: [{name: llm}]\n')).toEqual(['job.yaml:1:36: tasks.split: unknown key; did you mean splits (only pairs of these splits)?']);
    expect(problemsOf('tasks: {path: x}\nagents: [{name: oracle}]\nname: a\n  b: c\n')[0]).toBe('job.yaml:3:7: YAML syntax: Nested mappings are not allowed in compact mappings');
    expect(problemsOf('tasks: {path: x}\nagents:\n  - name: oracle\n name2: x\n')[0]).toBe('job.yaml:4:1: YAML syntax: All mapping items must start at the same column');
  });

  test('paths resolve against the config file; the shipped configs parse', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'sub', 'job.yaml');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, 'tasks: {path: ../legs}\nagents: [{name: random}]\n');
      expect(loadJobConfig(file).resolve('../legs')).toBe(path.join(dir, 'legs'));
      expect(() => loadJobConfig(path.join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read/);
    } finally {
      cleanup();
    }
    for (const name of ['default.yaml', 'paper.yaml']) {
      const { config } = loadJobConfig(path.join(REPO_ROOT, 'configs', name));
      expect(config.agents.length).toBeGreaterThan(0);
    }
    const paper = loadJobConfig(path.join(REPO_ROOT, 'configs', 'paper.yaml')).config;
    expect(paper).toMatchObject({ timeout_s: 600, concurrency: 4, resources: { memory_mb: 10240 }, tools: { output_limit: 8000 } });
    expect(paper.agents.map((a) => a.name)).toEqual(['claude-code', 'codex', 'mini-swe-agent']);
  });
});
