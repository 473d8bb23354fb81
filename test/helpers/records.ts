import { sha256Hex } from '../../trial/file-hashes.js';
import { TRIAL_FORMAT } from '../../trial/folder.js';
import { TrialRecordSchema, type TrialRecord, type TrialRecordInput } from '../../trial/record.js';

/** A completed trial's record for a leg's text, as the harness writes one; `extra` adds or replaces fields. */
export function completedRecord(legText: string, leg: Partial<TrialRecordInput['leg']> = {}, extra: Partial<TrialRecordInput> = {}): TrialRecord {
  return TrialRecordSchema.parse({
    format: TRIAL_FORMAT,
    trial_id: 't',
    job: 'j',
    agent: { id: 'a', name: 'a' },
    leg: { id: 'l', variant: 'v', level: 'easy', file: 'l.json', ...leg, sha256: sha256Hex(legText) },
    attempt: 1,
    status: 'completed',
    started_at: '2026-01-01T00:00:00Z',
    finished_at: '2026-01-01T00:00:01Z',
    timings: { total_s: 1 },
    step_budget: 10,
    harness_version: 'test',
    ...extra,
  });
}
