import {
  parsePyJson,
  parsePyJsonLine,
  PyJSONDecodeError,
  pyJsonDumps,
  pyRepr,
  pyStrip,
  pySplitlines,
  PyRecursionError,
  PyValueError,
  type PyValue,
} from '../../pycompat/index.js';
import { loadFixture } from './fixtures.js';

describe('parsePyJson == json.loads (shown through repr)', () => {
  test.each<[string, string]>([
    ['{"a": 1, "b": [1.0, 2.5, -0, -0.0, 1e400, -1e400, 1E2, true, false, null]}', "{'a': 1, 'b': [1.0, 2.5, 0, -0.0, inf, -inf, 100.0, True, False, None]}"],
    ['[NaN, Infinity, -Infinity]', '[nan, inf, -inf]'],
    ['{"a": 1, "b": 2, "a": 3}', "{'a': 3, 'b': 2}"], // last value wins, first position kept
    ['{"2": 1, "1": 2}', "{'2': 1, '1': 2}"], // insertion order, unlike a JS object
    ['12345678901234567890', '12345678901234567890'],
    ['-9007199254740993', '-9007199254740993'],
    ['"\\ud83d\\ude00 \\u00e9 \\/ \\" \\\\ \\b\\f\\n\\r\\t"', `'😀 é / " \\\\ \\x08\\x0c\\n\\r\\t'`],
    ['"\\ud800"', "'\\ud800'"], // lone surrogate kept
    ['"\\ud800\\u0041"', "'\\ud800A'"],
    [' \t\r\n[ ]\n', '[]'],
    ['"\x7f\u0085\u2028"', "'\\x7f\\x85\\u2028'"], // only < 0x20 is rejected raw
    ['{"__proto__": 1}', "{'__proto__': 1}"],
    [String.raw`["a\\", "b\"c", "\\\"", "\\\\"]`, String.raw`['a\\', 'b"c', '\\"', '\\\\']`], // runs of backslashes before quotes
    [String.raw`["a\\\" x"]`, String.raw`['a\\" x']`],
  ])('%j', (text, repr) => {
    expect(pyRepr(parsePyJson(text))).toBe(repr);
  });

  test.each<[string, string]>([
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ['\u00a01', 'Expecting value: line 1 column 1 (char 0)'], // only ASCII whitespace
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
    ["{'a': 1}", 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['{"a": 1} x', 'Extra data: line 1 column 10 (char 9)'],
    ['01', 'Extra data: line 1 column 2 (char 1)'],
    ['1.', 'Extra data: line 1 column 2 (char 1)'],
    ['-NaN', 'Expecting value: line 1 column 1 (char 0)'],
    ['"a\tb"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    [String.raw`"\\\"`, 'Unterminated string starting at: line 1 column 1 (char 0)'],
    [String.raw`["a\\" x"]`, "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ['"\\x"', 'Invalid \\escape: line 1 column 2 (char 1)'],
    ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['["😀",\n "\\q"]', 'Invalid \\escape: line 2 column 3 (char 8)'], // char counts code points
  ])('%j raises JSONDecodeError %j', (text, message) => {
    let error: unknown;
    try {
      parsePyJson(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PyJSONDecodeError);
    expect(error).toBeInstanceOf(SyntaxError);
    expect((error as Error).message).toBe(message);
  });

  test('errors that are not JSONDecodeError, as in Python', () => {
    expect(() => parsePyJson('1'.repeat(4301))).toThrow(PyValueError);
    expect(pyRepr(parsePyJson('1'.repeat(4300)))).toBe('1'.repeat(4300));
    expect(() => parsePyJson('['.repeat(2000) + ']'.repeat(2000))).toThrow(PyRecursionError);
    expect(pyRepr(parsePyJson('['.repeat(900) + ']'.repeat(900)))).toBe('['.repeat(900) + ']'.repeat(900));
  });

  test('value model', () => {
    const v = parsePyJson('{"i": 1, "f": 1.0, "g": 0.5, "big": 9007199254740993, "s": "x"}') as Map<string, PyValue>;
    expect(v).toBeInstanceOf(Map);
    expect(v.get('i')).toBe(1n);
    expect(v.get('f')).toBe(1);
    expect(v.get('g')).toBe(0.5);
    expect(v.get('big')).toBe(9007199254740993n);
  });

  test('parsePyJsonLine skips what json.loads rejects', () => {
    const log = '{"tool": "a", "success": true}\r\n\nnot json\n{"tool": "b"}\n{"x": 1,}\n';
    const parsed = pySplitlines(log)
      .map((l) => parsePyJsonLine(pyStrip(l)))
      .filter((v) => v !== undefined);
    expect(parsed.map((v) => pyRepr(v as PyValue))).toEqual(["{'tool': 'a', 'success': True}", "{'tool': 'b'}"]);
  });
});

describe('pyJsonDumps == json.dumps', () => {
  const value = new Map<string, PyValue>([
    ['a', [1n, 2, 0.1, new Map([['b', null]])]],
    ['c', []],
    ['d', new Map()],
    ['e', 'é😀\x7f\x00\ud800"\\/\n'],
    ['f', [NaN, Infinity, -Infinity, 1e-7, true, false, 10n ** 20n]],
  ]);
  test('no indent', () => {
    expect(pyJsonDumps(value)).toBe(
      '{"a": [1, 2.0, 0.1, {"b": null}], "c": [], "d": {}, "e": "\\u00e9\\ud83d\\ude00\\u007f\\u0000\\ud800\\"\\\\/\\n", ' +
        '"f": [NaN, Infinity, -Infinity, 1e-07, true, false, 100000000000000000000]}',
    );
  });
  test('indent=2', () => {
    expect(pyJsonDumps(new Map<string, PyValue>([['reward', 1], ['rate', 0.667], ['list', [1n, []]], ['empty', new Map()]]), 2)).toBe(
      '{\n  "reward": 1.0,\n  "rate": 0.667,\n  "list": [\n    1,\n    []\n  ],\n  "empty": {}\n}',
    );
  });
  test('indent=0 and scalars', () => {
    expect(pyJsonDumps([1n, [2n]], 0)).toBe('[\n1,\n[\n2\n]\n]');
    expect(pyJsonDumps('x', 2)).toBe('"x"');
    expect(pyJsonDumps([], 2)).toBe('[]');
  });
});

interface JsonCase {
  text: string;
  repr?: string;
  dumps?: string;
  dumps2?: string;
  error?: string;
  message?: string;
}

describe('fixture: random JSON texts, valid and mutated', () => {
  const cases = loadFixture<JsonCase[]>('json.json');
  test('all match CPython', () => {
    expect(cases.length).toBeGreaterThan(1000);
    const bad: unknown[] = [];
    for (const c of cases) {
      const got: JsonCase = { text: c.text };
      try {
        const v = parsePyJson(c.text);
        got.repr = pyRepr(v);
        got.dumps = pyJsonDumps(v);
        if (c.dumps2 !== undefined) got.dumps2 = pyJsonDumps(v, 2);
      } catch (e) {
        if (e instanceof PyJSONDecodeError) {
          got.error = 'JSONDecodeError';
          got.message = e.message;
        } else if (e instanceof PyValueError) got.error = 'ValueError';
        else if (e instanceof PyRecursionError) got.error = 'RecursionError';
        else throw e;
      }
      if (JSON.stringify(got) !== JSON.stringify(c)) bad.push({ expected: c, got });
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

describe('parsePyJson on tool-log lines', () => {
  // Its speed is measured by npm run bench:verify, not here.
  test('lines of one long string, escaped as Python writes them, parse to the same strings as JSON.parse', () => {
    const words = 'the quick brown fox jumps over a lazy dog, search result page title http://example.com/x 2024'.split(' ');
    let seed = 1;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) {
      let body = '';
      while (body.length < 2000) body += words[rand(words.length)] + (rand(12) === 0 ? '\n' : ' ');
      if (i % 3 === 0) body += ' "quoted" \u00e9\u00e8 \ud83d\ude00';
      const rec = { ts: 1712345678.123, tool: 'web_search', args: { query: 'fox', n: 10 }, success: true, result: body };
      lines.push(JSON.stringify(rec).replace(/[\u007f-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')));
    }
    for (const l of lines) {
      const parsed = parsePyJson(l) as Map<string, unknown>;
      expect(parsed.get('result')).toBe(JSON.parse(l).result);
    }
  });
});
