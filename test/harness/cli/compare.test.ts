import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

const JOB = { name: 'cli', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 } };

describe('aar compare (the compiled command, run as a process)', () => {
  test('Markdown, CSV and JSON; refused at unequal budgets with the differences on stderr; --allow-unequal marks the tables', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { legs } = await loadLegs(EXAMPLES_DIR);
      const many = [...legs, ...legs.map((l) => ({ ...l, id: `${l.id}-b` })), ...legs.map((l) => ({ ...l, id: `${l.id}-c` }))];
      const job = path.join(dir, 'job');
      writeSyntheticJob(job, many, 1, { withScores: true, agent: 'a', job: JOB });
      writeSyntheticJob(job, many, 2, { withScores: true, agent: 'b', job: JOB });
      const md = runAar(['compare', job, '--paper']);
      expect(md.status).toBe(0);
      expect(md.stdout).toMatch(/^### Configurations and the legs they lost/);
      expect(md.stdout).toContain('### Budgets: checked and equal');
      for (const heading of ['Paired differences', 'Cost-accuracy frontier', 'Table 11', 'Table 3', 'Table 7', 'Table 8', 'Table 9', 'Table 12', 'Figure 6']) expect(md.stdout).toContain(heading);
      const csv = runAar(['compare', job, '--format', 'csv']).stdout;
      expect(csv).toContain('# paired: Paired differences');
      expect(csv).toMatch(/^a,b,metric,variant,level,role,n,small_n,reducer,attempts,a_mean,b_mean,diff,lo,hi,interval,test,p_value,p_holm,interval_vs_test,discordant_a,discordant_b,mde_80,mde_80_method$/m);
      expect(csv).toContain('# note: a vs b: paired on the 9 legs both have a value for');
      const out = path.join(dir, 'compare.json');
      expect(runAar(['compare', `${job}:a`, `${job}:b`, '--format', 'json', '--out', out, '--seed', '4']).stdout).toBe(`wrote ${out}\n`);
      const json = JSON.parse(readFileSync(out, 'utf8'));
      expect(json.pairing.sharedLegs).toBe(9);
      expect(json.paired[0]).toMatchObject({ a: 'a', b: 'b', metric: 'fa', variant: '*', level: '*', n: 9 });

      const other = path.join(dir, 'other');
      writeSyntheticJob(other, many, 2, { withScores: true, agent: 'b', job: { ...JOB, timeout_s: 300 } });
      const refused = runAar(['compare', `${job}:a`, `${other}:b`]);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain('timeout_s: job:a = 600; other:b = 300');
      const forced = runAar(['compare', `${job}:a`, `${other}:b`, '--allow-unequal', '--paper']);
      expect(forced.status).toBe(0);
      const headings = forced.stdout.split('\n').filter((l) => l.startsWith('### ')).length;
      expect(forced.stdout.split('\n').filter((l) => l.startsWith('> UNEQUAL BUDGETS')).length).toBe(headings);
      expect(runAar(['compare', job, '--format', 'xml']).stderr.trim()).toBe('aar: --format: expected one of md, csv, json, got xml');
    } finally {
      cleanup();
    }
  });
});
