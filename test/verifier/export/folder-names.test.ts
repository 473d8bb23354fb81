import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { harborExporter } from '../../../verifier/export/harbor/index.js';
import type { ExportJob, ExportTrial } from '../../../verifier/export/types.js';
import { tempDir } from '../../helpers/data.js';

/** A scored trial as an exporter gets it, with the id given (the rest as a real trial has it). */
function trial(trialId: string, fa: number): ExportTrial {
  const record = {
    trial_id: trialId,
    agent: { id: 'a', name: 'oracle', model: null, version: null },
    leg: { id: 'leg-1', file: 'leg-1.json', sha256: '0'.repeat(64) },
    status: 'completed',
    error: null,
    attempt: 1,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    timings: { total_s: 1, agent_s: 1, overhead_s: 0 },
    run: { steps: 1, step_limit_hit: false, exit_code: 0, input_tokens: null, output_tokens: null, cached_tokens: null, cost_usd: null },
  };
  return {
    result: { dir: `/jobs/j/${trialId}`, record, score: { fa } } as unknown as ExportTrial['result'],
    trajectory: { schema_version: 'ATIF-v1.8', session_id: trialId, agent: { name: 'oracle', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'go' }] },
    metrics: { fa },
    outcome: { question: 'q', target: '1', answer: String(fa), explanation: `fa ${fa}` },
  };
}

describe('aar export --format harbor: a folder per trial, inside the export folder, whatever the trial ids', () => {
  test('two trials of one id get two folders; crafted ids make no hidden folder and leave nothing outside', () => {
    const { dir, cleanup } = tempDir('aar-h33-export-names-');
    try {
      const ids = ['oracle__a__easy__leg-1__1', 'oracle__a__easy__leg-1__1', '..', '.hidden', '../../escape', 'a/b', 'Oracle__A__easy__leg-1__1'];
      const job: ExportJob = { jobDir: '/jobs/j', name: 'j', family: 'aar', job: null, trials: ids.map((id, i) => trial(id, i % 2)) };
      const out = path.join(dir, 'out');
      harborExporter.write(job, out);
      const folders = readdirSync(out).filter((f) => f !== 'result.json' && f !== 'config.json').sort();
      expect(folders).toHaveLength(ids.length);
      expect(folders.every((f) => !f.startsWith('.'))).toBe(true);
      // A leading dot becomes `_`; a name differing only in case is another name's on some file systems.
      expect(folders).toEqual(['_hidden', '__', '___.._escape', 'Oracle__A__easy__leg-1__1-3', 'a_b', 'oracle__a__easy__leg-1__1', 'oracle__a__easy__leg-1__1-2'].sort());
      // Nothing written beside the export folder.
      expect(readdirSync(dir)).toEqual(['out']);
      expect(existsSync(path.join(dir, '..', 'escape'))).toBe(false);
      const result = JSON.parse(readFileSync(path.join(out, 'result.json'), 'utf8'));
      expect(result.n_total_trials).toBe(ids.length);
      // Each folder's own result names its folder, under an id of its own.
      const results = folders.map((folder) => JSON.parse(readFileSync(path.join(out, folder, 'result.json'), 'utf8')) as { trial_name: string; id: string });
      expect(results.map((r) => r.trial_name)).toEqual(folders);
      expect(new Set(results.map((r) => r.id)).size).toBe(folders.length);
    } finally {
      cleanup();
    }
  });
});
