import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJobConfig } from '../../../harness/config/load.js';
import { InputError } from '../../../tasks/problems.js';
import { runAar } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/data.js';

const LLM_ON_AAR = 'tasks:\n  path: legs\nagents:\n  - name: oracle\n  - name: llm\n    model: claude-sonnet-4-6\n';
const FAMILY_ONLY = 'the llm agent plays the wikirace family only, not aar (tasks.family)';

describe('an agent paired with a task family it cannot play', () => {
  test('is refused when the config loads, naming the file, the line and the field', () => {
    let problem: unknown;
    try {
      parseJobConfig('job.yaml', LLM_ON_AAR);
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(InputError);
    expect((problem as InputError).problems).toEqual([{ file: 'job.yaml:5:11', path: 'agents[1].name', message: FAMILY_ONLY }]);
    expect(parseJobConfig('job.yaml', 'tasks:\n  family: wikirace\n  path: pairs\nagents:\n  - name: llm\n').agents[0].name).toBe('llm');
    expect(parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: claude-code\n').agents[0].name).toBe('claude-code');
  });

  test('stops `aar plan` and `aar run` before the job starts, in one line', () => {
    const tmp = tempDir('agent-families');
    try {
      const config = path.join(tmp.dir, 'llm-on-aar.yaml');
      writeFileSync(config, `${LLM_ON_AAR}output: ${path.join(tmp.dir, 'jobs')}\n`);
      for (const command of ['plan', 'run']) {
        const r = runAar([command, config]);
        expect(r.status).toBe(1);
        expect(r.stderr.trim().split('\n')).toEqual([`aar: ${config}:5:11: agents[1].name: ${FAMILY_ONLY}`]);
      }
      const flags = runAar(['plan', '--agent', 'llm', '--path', 'tasks/examples']);
      expect(flags.status).toBe(1);
      expect(flags.stderr.trim().split('\n')).toEqual([`aar: command line: --agent: ${FAMILY_ONLY}`]);
    } finally {
      tmp.cleanup();
    }
  });
});
