import { SECRET_MARK, SecretMask, secretForms } from '../../common/secrets.js';

const KEY = 'sk-test/key+with=odd&chars_0123';
const TOKEN = `aar-${'0123456789abcdef'.repeat(3)}`;

describe('secret masking', () => {
  const mask = new SecretMask().add(KEY, 'short', '', undefined);

  test('a key as is, JSON-escaped, URL-encoded (either case), form-encoded and inside base64 at every alignment is masked', () => {
    const shown = [
      KEY,
      JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/'),
      encodeURIComponent(KEY),
      encodeURIComponent(KEY).toLowerCase(),
      ...[0, 1, 2].map((pad) => Buffer.from(`${'u:'.slice(0, pad)}${KEY}`).toString('base64')),
      Buffer.from(`Bearer ${KEY}`).toString('base64url'),
    ];
    for (const form of shown) {
      const text = `before ${form} after`;
      expect(mask.text(text)).not.toBe(text);
      expect(mask.text(text)).toContain(SECRET_MARK);
    }
    // Values too short to be told from text are not secrets.
    expect(mask.text('a short text')).toBe('a short text');
    expect(secretForms('abc')).toEqual([]);
  });

  test('any trial token is masked by its shape; text without a secret comes back the same string', () => {
    expect(mask.text(`token=${TOKEN};`)).toBe(`token=${SECRET_MARK};`);
    expect(mask.text('aar-harness, aar-0123 and hex 0123456789abcdef')).toBe('aar-harness, aar-0123 and hex 0123456789abcdef');
    const bytes = Buffer.from('nothing here');
    expect(mask.bytes(bytes)).toBe(bytes);
    expect(mask.bytes(Buffer.from(`é ${TOKEN} é`)).toString('utf8')).toBe(`é ${SECRET_MARK} é`);
  });

  test('a stream split at every byte masks a secret across chunks, holds back only what could begin one, and loses nothing else', () => {
    const text = `data: {"echo":"Authorization: Bearer ${KEY}","t":"${TOKEN}","é":"ü"}\n\n`;
    const expected = mask.text(text);
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = mask.stream();
      const out = Buffer.concat([stream.push(bytes.subarray(0, cut)), stream.push(bytes.subarray(cut)), stream.end()]).toString('utf8');
      expect(out).toBe(expected);
    }
    // Byte by byte, too.
    const stream = mask.stream();
    const out = Buffer.concat([...[...bytes].map((b) => stream.push(Buffer.from([b]))), stream.end()]).toString('utf8');
    expect(out).toBe(expected);
    expect(stream.masked).toBe(true);
    // An event that cannot begin a secret passes whole at once: a stream is not delayed.
    const event = Buffer.from('data: {"type":"content_block_delta"}\n\n');
    expect(mask.stream().push(event)).toEqual(event);
  });
});
