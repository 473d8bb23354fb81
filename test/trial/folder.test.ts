import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  clearPartialTrials,
  isJobFolder,
  JOB_FILE,
  commitStaging,
  createStaging,
  listTrialDirs,
  PARTIAL_DIR,
  readOptionalText,
  readTrialText,
  TRIAL_FILES,
  writeFiles,
  writeTrialFolder,
} from '../../trial/folder.js';
import { tempDir } from '../helpers/data.js';

describe('trial folder: layout and atomic writes', () => {
  test('a staged folder is invisible until committed, then replaces an earlier attempt whole', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTrialFolder(dir, 'leg-a', { [TRIAL_FILES.record]: '{}', [TRIAL_FILES.answer]: 'old', 'agent/stdout.log': 'x' });
      const staging = createStaging(dir, 'leg-a');
      expect(path.dirname(staging)).toBe(path.join(dir, PARTIAL_DIR));
      writeFiles(staging, { [TRIAL_FILES.record]: '{"new": 1}', 'agent/nested/log.txt': new Uint8Array([104, 105]) });
      expect(listTrialDirs(dir)).toEqual([path.join(dir, 'leg-a')]);
      expect(readTrialText(path.join(dir, 'leg-a'), TRIAL_FILES.answer)).toBe('old');

      expect(commitStaging(dir, 'leg-a', staging)).toBe(path.join(dir, 'leg-a'));
      const trial = path.join(dir, 'leg-a');
      expect(readFileSync(path.join(trial, TRIAL_FILES.record), 'utf8')).toBe('{"new": 1}');
      expect(readFileSync(path.join(trial, 'agent', 'nested', 'log.txt'), 'utf8')).toBe('hi');
      expect(existsSync(path.join(trial, TRIAL_FILES.answer))).toBe(false);
      expect(readdirSync(path.join(dir, PARTIAL_DIR))).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('lists sub-folders holding a trial.json, sorted, and skips the partial area', () => {
    const { dir, cleanup } = tempDir();
    try {
      for (const id of ['b', 'a']) writeTrialFolder(dir, id, { [TRIAL_FILES.record]: '{}' });
      mkdirSync(path.join(dir, 'no-record'));
      writeFiles(createStaging(dir, 'c'), { [TRIAL_FILES.record]: '{}' });
      expect(listTrialDirs(dir)).toEqual([path.join(dir, 'a'), path.join(dir, 'b')]);
      clearPartialTrials(dir);
      expect(existsSync(path.join(dir, PARTIAL_DIR))).toBe(false);
      expect(() => listTrialDirs(path.join(dir, 'missing'))).toThrow(/no such job folder/);
    } finally {
      cleanup();
    }
  });

  test("half-written trials are cleared only in a job folder: another folder's .partial is left alone", () => {
    const { dir, cleanup } = tempDir();
    try {
      mkdirSync(path.join(dir, PARTIAL_DIR, 'x'), { recursive: true });
      writeFileSync(path.join(dir, PARTIAL_DIR, 'x', 'y.txt'), 'mine');
      expect(isJobFolder(dir)).toBe(false);
      expect(clearPartialTrials(dir)).toBe(false);
      expect(readFileSync(path.join(dir, PARTIAL_DIR, 'x', 'y.txt'), 'utf8')).toBe('mine');
      writeFileSync(path.join(dir, JOB_FILE), '{}');
      expect(isJobFolder(dir)).toBe(true);
      expect(clearPartialTrials(dir)).toBe(true);
      expect(existsSync(path.join(dir, PARTIAL_DIR))).toBe(false);
      expect(isJobFolder(path.join(dir, 'missing'))).toBe(false);
    } finally {
      cleanup();
    }
  });

  test('optional files read as Python read_text(): universal newlines, null when absent', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(path.join(dir, 'a.txt'), 'one\r\ntwo\rthree\n');
      expect(readOptionalText(path.join(dir, 'a.txt'))).toBe('one\ntwo\nthree\n');
      expect(readTrialText(dir, TRIAL_FILES.answer)).toBeNull();
      writeFileSync(path.join(dir, 'bad.txt'), Buffer.from([0x34, 0xff, 0x0d]));
      expect(readOptionalText(path.join(dir, 'bad.txt'))).toBe('4\ufffd\n');
    } finally {
      cleanup();
    }
  });

  test('the one-call reading and the byte reading agree: BOM kept, a real U+FFFD kept, bad bytes replaced', () => {
    const { dir, cleanup } = tempDir();
    const cases: Array<[string, number[], string]> = [
      ['bom', [0xef, 0xbb, 0xbf, 0x31, 0x0d, 0x0a], '\ufeff1\n'],
      ['real replacement character', [0x6f, 0x6b, 0x20, 0xef, 0xbf, 0xbd], 'ok \ufffd'],
      ['encoded surrogate', [0x61, 0xed, 0xa0, 0x80, 0x62], 'a\ufffd\ufffd\ufffdb'],
      ['overlong', [0xc0, 0xaf], '\ufffd\ufffd'],
      ['two-byte text', [0xc3, 0xa9, 0xe2, 0x86, 0x92, 0x0d], '\u00e9\u2192\n'],
    ];
    try {
      for (const [name, bytes, text] of cases) {
        writeFileSync(path.join(dir, name), Buffer.from(bytes));
        expect([name, readOptionalText(path.join(dir, name))]).toEqual([name, text]);
      }
    } finally {
      cleanup();
    }
  });
});
