import { aarFamily } from '../../tasks/aar/family.js';
import { wikiraceFamily } from '../../tasks/wikirace/family.js';
import { DEFAULT_FAMILY, FAMILY_NAMES, familyOfRecord, findFamily, taskFamily } from '../../tasks/registry.js';
import { FAMILY_DECLARATIONS, familyDeclaration, scorerOfRecord } from '../../tasks/families.js';
import { WIKIRACE_TRIAL_FILES } from '../../tasks/wikirace/trial-files.js';
import { TRIAL_FILES } from '../../trial/folder.js';
import { buildProgram } from '../../harness/cli/program.js';
import { EXAMPLES_DIR } from '../helpers/data.js';

describe('the task family registry', () => {
  test('finds aar by name, and by default; wikirace by name', () => {
    expect(FAMILY_NAMES.slice(0, 2)).toEqual(['aar', 'wikirace']);
    expect(taskFamily('wikirace')).toBe(wikiraceFamily);
    expect(DEFAULT_FAMILY).toBe('aar');
    expect(taskFamily('aar')).toBe(aarFamily);
    expect(taskFamily()).toBe(aarFamily);
    expect(findFamily('aar')?.name).toBe('aar');
  });

  test('an unknown name is a one-line error listing the known families', () => {
    expect(findFamily('chess')).toBeUndefined();
    expect(() => taskFamily('chess')).toThrow(new Error(`unknown task family 'chess'; known: ${FAMILY_NAMES.join(', ')}`));
  });

  test('a trial record without a family is an AAR trial', () => {
    expect(familyOfRecord({})).toBe(aarFamily);
    expect(familyOfRecord({ family: 'aar' })).toBe(aarFamily);
    expect(familyOfRecord({ family: 'wikirace' })).toBe(wikiraceFamily);
    expect(() => familyOfRecord({ family: 'chess' })).toThrow("unknown task family 'chess'");
  });
});

describe('the scorers aar verify loads on their own', () => {
  test('are the families\' own, under the same names', async () => {
    expect(FAMILY_DECLARATIONS.map((d) => d.name)).toEqual(FAMILY_NAMES);
    for (const name of FAMILY_NAMES) {
      const scorer = await scorerOfRecord({ family: name });
      expect(scorer.score).toBe(taskFamily(name).score);
      expect(scorer.scoreToJson).toBe(taskFamily(name).scoreToJson);
    }
    expect((await scorerOfRecord({})).score).toBe(aarFamily.score);
  });

  test('an unknown family is the registry\'s error', async () => {
    await expect(scorerOfRecord({ family: 'chess' })).rejects.toThrow(new Error(`unknown task family 'chess'; known: ${FAMILY_NAMES.join(', ')}`));
    await expect(scorerOfRecord({ family: 'toString' })).rejects.toThrow("unknown task family 'toString'");
  });
});

describe('what a family declares besides its tasks', () => {
  test('its whole family and scorer load from the declaration; the registry holds the same objects', async () => {
    for (const name of FAMILY_NAMES) expect(await familyDeclaration(name).family()).toBe(taskFamily(name));
    expect(() => familyDeclaration('chess')).toThrow(new Error(`unknown task family 'chess'; known: ${FAMILY_NAMES.join(', ')}`));
  });

  test('its CLI commands: AAR adds aar tasks list|show|validate|audit and aar score', () => {
    const program = buildProgram();
    const tasks = program.commands.find((c) => c.name() === 'tasks');
    expect(tasks?.commands.map((c) => c.name())).toEqual(['list', 'show', 'validate', 'audit']);
    expect(tasks?.description()).toBe('AAR legs: list, show, validate and audit them');
    expect(program.commands.filter((c) => c.name() === 'score')).toHaveLength(1);
  });

  test('its extra trial files: WikiRace\'s trajectory.jsonl is its own, not in the generic TRIAL_FILES', () => {
    expect(familyDeclaration('wikirace').trialFiles).toBe(WIKIRACE_TRIAL_FILES);
    expect(Object.values(TRIAL_FILES)).not.toContain('trajectory.jsonl');
    expect(familyDeclaration('aar').trialFiles).toBeUndefined();
  });
});

describe('the aar family', () => {
  test('loads, filters, describes and budgets the example legs through the interface', async () => {
    const family = taskFamily('aar');
    const { tasks, problems } = await family.load([EXAMPLES_DIR]);
    expect(problems).toEqual([]);
    const easy = family.filter(tasks, family.filterSchema.parse({ levels: ['easy'] }));
    expect(easy.length).toBeGreaterThan(0);
    const task = easy[0];
    expect(family.describe(task)).toEqual({ id: task.id, variant: expect.any(String), level: 'easy', file: task.file });
    expect(family.stepBudget(task)).toBeGreaterThanOrEqual(10);
    const instruction = family.renderInstruction(task, { stepBudget: 12 });
    expect(instruction).toContain('12');
    expect(family.tools.length).toBeGreaterThan(0);
    expect(family.oracle(task).command[0]).toBe('node');
    expect(family.randomBaseline(task, 7)).toEqual(family.randomBaseline(task, 7));
    expect(family.toolSession).toBeUndefined();
  });
});
