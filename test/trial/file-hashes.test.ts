import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileSha256, hashTrialFiles, PREVIOUS_SCORE_FILE, scoreMatchesSeal, sealTrialFolder, sha256Hex, tamperedFiles } from '../../trial/file-hashes.js';
import { readTrialRecord, type TrialRecord } from '../../trial/record.js';
import { tempDir } from '../helpers/data.js';
import { completedRecord } from '../helpers/records.js';

const LEG = '{"passcode": 4, "stops": []}\n';

const record = (): TrialRecord => completedRecord(LEG);

/** A trial folder as the harness leaves it: its files, then trial.json sealing them. */
function sealedTrial(dir: string): TrialRecord {
  mkdirSync(path.join(dir, 'agent'), { recursive: true });
  writeFileSync(path.join(dir, 'leg.json'), LEG);
  writeFileSync(path.join(dir, 'answer.txt'), '4');
  writeFileSync(path.join(dir, 'tool_log.jsonl'), '{"tool": "fetch_webpage"}\n');
  writeFileSync(path.join(dir, 'agent', 'stdout.log'), 'hello\n');
  writeFileSync(path.join(dir, 'score.json'), '{"fa": 1}\n');
  return sealTrialFolder(dir, record());
}

describe("a trial folder's seal: trial.json holds the sha256 of every file the harness wrote", () => {
  const tmp = tempDir('aar-seal-');
  afterAll(() => tmp.cleanup());
  let n = 0;
  const fresh = (): string => path.join(tmp.dir, `trial-${++n}`);

  test('sealing records every file but trial.json (score and agent logs included), and writes trial.json last', () => {
    const dir = fresh();
    const sealed = sealedTrial(dir);
    expect(Object.keys(sealed.file_sha256!)).toEqual(['agent/stdout.log', 'answer.txt', 'leg.json', 'score.json', 'tool_log.jsonl']);
    expect(sealed.file_sha256!['leg.json']).toBe(sealed.leg.sha256);
    expect(sealed.file_sha256!['score.json']).toBe(fileSha256(path.join(dir, 'score.json')));
    expect(readTrialRecord(dir)).toEqual(sealed);
    expect(tamperedFiles(dir, sealed)).toEqual([]);
  });

  test('a file changed, removed or added after the run is named, with how', () => {
    const dir = fresh();
    const sealed = sealedTrial(dir);
    writeFileSync(path.join(dir, 'tool_log.jsonl'), '');
    rmSync(path.join(dir, 'agent', 'stdout.log'));
    writeFileSync(path.join(dir, 'model_log.jsonl'), '{}\n');
    symlinkSync('/etc/passwd', path.join(dir, 'agent', 'link'));
    expect(tamperedFiles(dir, sealed)).toEqual([
      { file: 'agent/link', how: 'added' },
      { file: 'agent/stdout.log', how: 'removed' },
      { file: 'model_log.jsonl', how: 'added' },
      { file: 'tool_log.jsonl', how: 'changed' },
    ]);
    // score.prev.json (kept by `aar verify --fix`) is outside the seal.
    writeFileSync(path.join(dir, PREVIOUS_SCORE_FILE), '{}');
    expect(tamperedFiles(dir, sealed).map((t) => t.file)).not.toContain(PREVIOUS_SCORE_FILE);
  });

  test('a leg.json rewritten together with its seal still differs from leg.sha256, which says what ran', () => {
    const dir = fresh();
    const sealed = sealedTrial(dir);
    writeFileSync(path.join(dir, 'leg.json'), '{}');
    const forged = { ...sealed, file_sha256: { ...sealed.file_sha256!, 'leg.json': sha256Hex('{}') } };
    expect(tamperedFiles(dir, forged)).toEqual([{ file: 'leg.json', how: 'changed' }]);
  });

  test('a folder written before seals existed is checked on leg.json against leg.sha256', () => {
    const dir = fresh();
    const { file_sha256: _seal, ...old } = sealedTrial(dir);
    expect(tamperedFiles(dir, old)).toEqual([]);
    writeFileSync(path.join(dir, 'tool_log.jsonl'), '');
    expect(tamperedFiles(dir, old)).toEqual([]);
    writeFileSync(path.join(dir, 'leg.json'), '{}');
    expect(tamperedFiles(dir, old)).toEqual([{ file: 'leg.json', how: 'changed' }]);
    rmSync(path.join(dir, 'leg.json'));
    expect(tamperedFiles(dir, old)).toEqual([{ file: 'leg.json', how: 'removed' }]);
  });

  test("score.json against its seal (what report and compare check); null without one", () => {
    const dir = fresh();
    const sealed = sealedTrial(dir);
    expect(scoreMatchesSeal(sealed, readFileSync(path.join(dir, 'score.json')))).toBe(true);
    expect(scoreMatchesSeal(sealed, Buffer.from('{"fa": 0}\n'))).toBe(false);
    expect(scoreMatchesSeal(record(), Buffer.from('{}'))).toBeNull();
  });

  test('hashing reads in pieces: the same digest as hashing the bytes at once, for a file larger than its buffer', () => {
    const dir = fresh();
    mkdirSync(dir);
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'ab');
    writeFileSync(path.join(dir, 'tool_log.jsonl'), big);
    expect(hashTrialFiles(dir)).toEqual({ 'tool_log.jsonl': sha256Hex(big) });
    expect(() => fileSha256(path.join(dir, 'nothing'))).toThrow(path.join(dir, 'nothing'));
  });
});
