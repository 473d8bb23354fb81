import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { TRIAL_FILES, TRIAL_FORMAT } from '../../trial/folder.js';
import { agentUsesModel, readTrialRecord, TrialRecordSchema, trialRecordJson } from '../../trial/record.js';
import { tempDir } from '../helpers/data.js';

const fullRecord = {
  format: TRIAL_FORMAT,
  trial_id: 'leg-1__oracle__1',
  job: 'demo',
  agent: { id: 'oracle', name: 'oracle', model: null, version: null },
  leg: { id: 'leg-1', variant: 'linear', level: 'easy', file: 'legs/leg-1.json', sha256: 'ab'.repeat(32) },
  attempt: 1,
  status: 'completed',
  error: null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:05.000Z',
  timings: { total_s: 5, agent_s: 4.5, overhead_s: 0.5 },
  step_budget: 10,
  run: { steps: 7, step_limit_hit: null, exit_code: 0, input_tokens: 1200, output_tokens: 80, cached_tokens: 0, cost_usd: 0.01 },
  seed: 42,
  harness_version: '0.1.0',
};

function writeRecord(dir: string, record: unknown): void {
  writeFileSync(path.join(dir, TRIAL_FILES.record), typeof record === 'string' ? record : JSON.stringify(record, null, 2) + '\n');
}

describe('trial.json', () => {
  test("agent.uses_model says whether run.steps are model calls; older records: the baselines have none, others unknown", () => {
    const agent = (a: object) => TrialRecordSchema.parse({ ...fullRecord, agent: { ...fullRecord.agent, ...a } });
    expect(agentUsesModel(agent({ name: 'llm', uses_model: true }))).toBe(true);
    expect(agentUsesModel(agent({ name: 'command', uses_model: false }))).toBe(false);
    expect(agentUsesModel(agent({ name: 'oracle' }))).toBe(false);
    expect(agentUsesModel(agent({ name: 'random' }))).toBe(false);
    expect(agentUsesModel(agent({ name: 'claude-code' }))).toBeNull();
  });

  test('a record reads back and writes out byte for byte', () => {
    const { dir, cleanup } = tempDir();
    try {
      const text = JSON.stringify(fullRecord, null, 2) + '\n';
      writeRecord(dir, text);
      expect(trialRecordJson(readTrialRecord(dir))).toBe(text);
      expect(trialRecordJson(TrialRecordSchema.parse(fullRecord))).toBe(text);
    } finally {
      cleanup();
    }
  });

  test('fields this version does not know stay; fields older records lack get their defaults', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeRecord(dir, { ...fullRecord, future: { x: 1 }, run: { ...fullRecord.run, turns_by_model: [3] } });
      const kept = readTrialRecord(dir);
      expect((kept as Record<string, unknown>).future).toEqual({ x: 1 });
      expect((kept.run as Record<string, unknown>).turns_by_model).toEqual([3]);

      const { run: _run, seed: _seed, error: _error, ...old } = fullRecord;
      writeRecord(dir, { ...old, timings: { total_s: 5 } });
      const read = readTrialRecord(dir);
      expect(read.run).toEqual({ steps: null, step_limit_hit: null, exit_code: null, input_tokens: null, output_tokens: null, cached_tokens: null, cost_usd: null });
      expect(read).toMatchObject({ seed: null, error: null, timings: { total_s: 5, agent_s: null, overhead_s: null } });
    } finally {
      cleanup();
    }
  });

  test('a bad record names its file and the field', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeRecord(dir, { ...fullRecord, status: 'done' });
      expect(() => readTrialRecord(dir)).toThrow(`${path.join(dir, TRIAL_FILES.record)}: status:`);
      writeRecord(dir, '{not json');
      expect(() => readTrialRecord(dir)).toThrow(path.join(dir, TRIAL_FILES.record));
    } finally {
      cleanup();
    }
  });

  test("leg is generic: id, file, sha256 and the family's own fields (its slice keys), kept in the order written", () => {
    const { dir, cleanup } = tempDir();
    try {
      // A family slicing by task_set and split, its fields between id and file: read and written again byte for byte.
      const other = { format: fullRecord.format, family: 'other', ...fullRecord, leg: { id: 'p-1', task_set: 'examples', split: 'hard', file: 'p-1.json', sha256: 'cd'.repeat(32) } };
      const text = JSON.stringify(other, null, 2) + '\n';
      writeRecord(dir, text);
      expect(trialRecordJson(readTrialRecord(dir))).toBe(text);
      expect(readTrialRecord(dir).leg).toMatchObject({ task_set: 'examples', split: 'hard' });
      const { id: _id, ...noId } = fullRecord.leg;
      writeRecord(dir, { ...fullRecord, leg: noId });
      expect(() => readTrialRecord(dir)).toThrow(`${path.join(dir, TRIAL_FILES.record)}: leg.id:`);
      writeRecord(dir, { ...fullRecord, leg: 'leg-1' });
      expect(() => readTrialRecord(dir)).toThrow(`${path.join(dir, TRIAL_FILES.record)}: leg:`);
    } finally {
      cleanup();
    }
  });
});
