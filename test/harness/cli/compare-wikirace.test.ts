import path from 'node:path';
import { ALPHA_GAMES, BETA_GAMES, writeCraftedWikiraceJob } from '../../helpers/crafted-wikirace.js';
import { runAar } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/data.js';

const tmp = tempDir('aar-compare-wikirace-cli-');
afterAll(() => tmp.cleanup());

test('aar compare --paper on a WikiRace job: moves in the steps column, then the LLM-WikiRace paper tables (Markdown and CSV)', () => {
  const job = path.join(tmp.dir, 'job');
  writeCraftedWikiraceJob(job, 'alpha', ALPHA_GAMES);
  writeCraftedWikiraceJob(job, 'beta', BETA_GAMES);
  const md = runAar(['compare', job, '--paper']);
  expect(md.stderr).toBe('');
  expect(md.status).toBe(0);
  // Mean moves: alpha (3 + 6 + 4 + 2) / 4 = 3.75, beta (4 + 3 + 5 + 4) / 4 = 4.
  expect(md.stdout).toMatch(/\| alpha \| scripted \| 4 \|.*\| 3\.8 \|/);
  expect(md.stdout).toContain('Table 1: success rate (%), suboptimal steps and usage per step, per split');
  expect(md.stdout).toContain('Figure 5: success rate vs loop frequency');
  expect(md.stdout).toContain('Figure 1: world-knowledge probe F1 vs average success');
  expect(md.stdout).toContain('(appendix D, Figure 10)');
  // The AAR paper's Table 12 is not LLM-WikiRace's.
  expect(md.stdout).not.toContain('Table 12');
  const csv = runAar(['compare', job, '--paper', '--format', 'csv']);
  expect(csv.status).toBe(0);
  expect(csv.stdout).toContain('# wikirace-table1: Table 1');
  // tokens_per_step 250, generated_tokens_per_step 50 (one model call per move in these games), no cost.
  expect(csv.stdout).toContain('alpha,1,0,0,1,,,250,50,,2,1,1');
  expect(csv.stdout).toContain('beta,0.5,1,0,1,0,,,,,2,1,1');
}, 60_000);
