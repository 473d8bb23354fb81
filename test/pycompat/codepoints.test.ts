/**
 * Every code point U+0000..U+10FFFF (lone surrogates included) through each ported function, compared with
 * CPython 3.11 by SHA-256 digests per block of 4096 code points (fixtures/codepoints.json, written by
 * gen/gen_fixtures.py where the Python side of each line below is spelled out).
 */
import { createHash } from 'node:crypto';
import {
  isPySpace,
  parsePyJson,
  pyFloat,
  pyJsonDumps,
  pyLower,
  pyMatchesSingleDigit,
  pyRepr,
  pySplitlines,
  pyStrip,
  PyJSONDecodeError,
} from '../../pycompat/index.js';
import { loadFixture, toBits } from './fixtures.js';

interface Digests {
  block: number;
  functions: Record<string, { total: string; blocks: string[] }>;
}

function floatOrE(s: string): string {
  const v = pyFloat(s);
  return v === null ? 'E' : toBits(v);
}

function jsonOutcome(text: string): string {
  try {
    return pyRepr(parsePyJson(text));
  } catch (e) {
    if (e instanceof PyJSONDecodeError) return 'E:' + e.message;
    throw e;
  }
}

const PER_CP: Record<string, (ch: string) => string> = {
  repr: (ch) => pyRepr(ch),
  reprInList: (ch) => pyRepr([ch, ch + "'", ch + '"']),
  lower: (ch) => pyLower(ch),
  strip: (ch) => pyStrip('a' + ch) + '|' + pyStrip(ch + 'a') + '|' + pyStrip(ch),
  isspace: (ch) => (isPySpace(ch.codePointAt(0) as number) ? '1' : '0'),
  singleDigit: (ch) => `${Number(pyMatchesSingleDigit(ch))}${Number(pyMatchesSingleDigit(ch + '\n'))}`,
  splitlines: (ch) => pySplitlines('a' + ch + 'b').join('|') + '#' + pySplitlines(ch + '\n').join('|'),
  float: (ch) => floatOrE(ch + '5') + '|' + floatOrE(ch) + '|' + floatOrE('5' + ch),
  sigma: (ch) => pyLower('A' + ch + '\u03a3') + pyLower('A\u03a3' + ch) + pyLower(ch + '\u03a3'),
  jsonDumps: (ch) => pyJsonDumps(ch) + pyJsonDumps(new Map([[ch, [ch]]]), 1),
  jsonLoads: (ch) => jsonOutcome('"' + ch + '"') + jsonOutcome(ch),
};

const digests = loadFixture<Digests>('codepoints.json');

describe('every code point agrees with CPython 3.11', () => {
  let savedLimit: number;
  beforeAll(() => {
    savedLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0; // jsonLoads throws for most code points
  });
  afterAll(() => {
    Error.stackTraceLimit = savedLimit;
  });

  test.each(Object.keys(PER_CP))('%s', (name) => {
    const fn = PER_CP[name];
    const expected = digests.functions[name];
    const bad: string[] = [];
    const total = createHash('sha256');
    for (let b = 0; b < expected.blocks.length; b++) {
      const start = b * digests.block;
      let text = '';
      for (let cp = start; cp < start + digests.block; cp++) text += fn(String.fromCodePoint(cp)) + '\0';
      const d = createHash('sha256').update(Buffer.from(text, 'utf16le')).digest('hex').slice(0, 16);
      total.update(d);
      if (d !== expected.blocks[b]) bad.push(`U+${start.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    expect(bad).toEqual([]);
    expect(total.digest('hex').slice(0, 16)).toBe(expected.total);
  });
});
