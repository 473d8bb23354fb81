import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderInstruction } from '../../../tasks/aar/instruction.js';
import { loadLegFile } from '../../../tasks/aar/load.js';
import { TOOLS } from '../../../tools/catalog/index.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

const { legs } = loadLegFile(path.join(EXAMPLES_DIR, 'examples-dag/medium/sample_002.json'));
const leg = legs[0].leg;

describe('instruction.md', () => {
  const text = renderInstruction(leg);

  test('has the seed URL, the riddle and the answer contract', () => {
    expect(text).toContain(leg.seed_url);
    expect(text).toContain(leg.riddle.trim());
    expect(text).toContain('/app/answer.txt');
    expect(text).toMatch(/single digit from 0 to 9/);
    expect(text).not.toMatch(/\{\{/);
  });

  test('documents all 19 tools with their arguments and an example call each', () => {
    for (const tool of TOOLS) {
      expect(text).toContain(`**${tool.name}**`);
      expect(text).toContain(`tools ${tool.name} '${JSON.stringify(tool.example)}'`);
      for (const p of tool.params) expect(text).toContain(`\`${p.name}\``);
    }
    expect(text).toContain('tools --list');
  });

  test('states the step budget B = max(10, floor(1.5 K))', () => {
    expect(leg.stops).toHaveLength(7);
    expect(text).toContain('**10 steps**');
    expect(renderInstruction(leg, { stepBudget: 42 })).toContain('**42 steps**');
  });

  test('a user template replaces the default', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'mine.md');
      writeFileSync(file, 'Go to {{seed_url}} ({{seed_title}}), {{stops}} stops, {{step_budget}} steps. {{unknown}}');
      expect(renderInstruction(leg, { templatePath: file })).toBe(
        'Go to https://en.wikipedia.org/wiki/Danube (Danube), 7 stops, 10 steps. {{unknown}}',
      );
    } finally {
      cleanup();
    }
  });
});
