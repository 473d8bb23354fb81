import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SECRET_MARK, SecretMask } from '../../common/secrets.js';
import { maskSecretsInFolder } from '../../trial/mask-folder.js';
import { tempDir } from '../helpers/data.js';

const KEY = 'sk-folder-test-key/0123456789';
const TOKEN = `aar-${'ab'.repeat(24)}`;

describe('secrets masked in a trial folder before it is scored and sealed', () => {
  test('every file holding a key or a token is written again masked, a secret across the 1 MiB chunks too; leg.json and links are left', () => {
    const { dir, cleanup } = tempDir('aar-h33-mask-');
    const outside = tempDir('aar-h33-mask-outside-');
    try {
      const mask = new SecretMask().add(KEY);
      mkdirSync(path.join(dir, 'agent', 'logs'), { recursive: true });
      writeFileSync(path.join(dir, 'agent', 'stdout.log'), `token ${TOKEN}\nkey ${encodeURIComponent(KEY)}\n`);
      // A key split where the reader's 1 MiB chunks meet.
      const big = Buffer.concat([Buffer.alloc(1024 * 1024 - 5, 'x'), Buffer.from(KEY), Buffer.from('\n')]);
      writeFileSync(path.join(dir, 'agent', 'logs', 'big.log'), big);
      writeFileSync(path.join(dir, 'answer.txt'), '3');
      writeFileSync(path.join(dir, 'leg.json'), `{"note": "${TOKEN}"}`);
      writeFileSync(path.join(outside.dir, 'theirs.txt'), KEY);
      symlinkSync(path.join(outside.dir, 'theirs.txt'), path.join(dir, 'agent', 'link.txt'));

      expect(maskSecretsInFolder(dir, mask).sort()).toEqual(['agent/logs/big.log', 'agent/stdout.log']);
      expect(readFileSync(path.join(dir, 'agent', 'stdout.log'), 'utf8')).toBe(`token ${SECRET_MARK}\nkey ${SECRET_MARK}\n`);
      const masked = readFileSync(path.join(dir, 'agent', 'logs', 'big.log'), 'utf8');
      expect(masked.endsWith(`x${SECRET_MARK}\n`)).toBe(true);
      expect(masked).toHaveLength(1024 * 1024 - 5 + SECRET_MARK.length + 1);
      expect(readFileSync(path.join(dir, 'answer.txt'), 'utf8')).toBe('3');
      expect(readFileSync(path.join(dir, 'leg.json'), 'utf8')).toContain(TOKEN);
      expect(readFileSync(path.join(outside.dir, 'theirs.txt'), 'utf8')).toBe(KEY);
    } finally {
      cleanup();
      outside.cleanup();
    }
  });
});
