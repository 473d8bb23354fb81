import { pyRepr, pyStr, pyStrRepr, pyTruthy, type PyValue } from '../../pycompat/index.js';

describe('pyRepr / pyStr == repr() / str()', () => {
  test.each<[string, PyValue, string, string]>([
    // [name, value, repr, str]
    ['plain str', 'abc', "'abc'", 'abc'],
    ['empty str', '', "''", ''],
    ['single quote -> double quotes', "it's", '"it\'s"', "it's"],
    ['both quotes -> single, escaped', `it's "x"`, `'it\\'s "x"'`, `it's "x"`],
    ['only double quotes', 'say "hi"', `'say "hi"'`, 'say "hi"'],
    ['backslash', 'a\\b', "'a\\\\b'", 'a\\b'],
    ['\\t \\n \\r', '\t\n\r', "'\\t\\n\\r'", '\t\n\r'],
    ['other C0 and DEL', '\x00\x1b\x7f', "'\\x00\\x1b\\x7f'", '\x00\x1b\x7f'],
    ['C1 and NBSP', '\x85\xa0\xad', "'\\x85\\xa0\\xad'", '\x85\xa0\xad'],
    ['printable Latin-1', 'é¿', "'é¿'", 'é¿'],
    ['BMP non-printable', '\u200b\u2028\u3000\ufeff', "'\\u200b\\u2028\\u3000\\ufeff'", '\u200b\u2028\u3000\ufeff'],
    ['private use, unassigned', '\ue000\u0378', "'\\ue000\\u0378'", '\ue000\u0378'],
    ['astral printable', '😀', "'😀'", '😀'],
    ['astral non-printable', '\u{e0001}\u{f0000}', "'\\U000e0001\\U000f0000'", '\u{e0001}\u{f0000}'],
    ['Unicode 15+ (unassigned in 3.11)', '\u{1f6dc}', "'\\U0001f6dc'", '\u{1f6dc}'],
    ['lone surrogates', '\ud800x\udfff', "'\\ud800x\\udfff'", '\ud800x\udfff'],
    ['int', 42n, '42', '42'],
    ['negative int', -7n, '-7', '-7'],
    ['int -0 is 0', -0n, '0', '0'],
    ['big int (bigint)', 12345678901234567890n, '12345678901234567890', '12345678901234567890'],
    ['large integral float', 1e22, '1e+22', '1e+22'],
    ['float', 2.5, '2.5', '2.5'],
    ['integral float', 20, '20.0', '20.0'],
    ['negative zero float', -0, '-0.0', '-0.0'],
    ['small float', 1e-7, '1e-07', '1e-07'],
    ['nan', NaN, 'nan', 'nan'],
    ['inf', Infinity, 'inf', 'inf'],
    ['True', true, 'True', 'True'],
    ['False', false, 'False', 'False'],
    ['None', null, 'None', 'None'],
    ['list', ['a', 1n, 2.5, null, true], "['a', 1, 2.5, None, True]", "['a', 1, 2.5, None, True]"],
    ['empty list', [], '[]', '[]'],
    ['dict (Map)', new Map<string, PyValue>([['k', 'v'], ['n', [1]]]), "{'k': 'v', 'n': [1.0]}", "{'k': 'v', 'n': [1.0]}"],
    ['nested dict', new Map<string, PyValue>([['a', new Map([['b', "it's"]])]]), `{'a': {'b': "it's"}}`, `{'a': {'b': "it's"}}`],
    ['empty dict', new Map(), '{}', '{}'],
    ['str inside list uses repr', ['x\ny'], "['x\\ny']", "['x\\ny']"],
  ])('%s', (_name, v, repr, str) => {
    expect(pyRepr(v)).toBe(repr);
    expect(pyStr(v)).toBe(str);
  });

  test('pyStrRepr is repr of a str', () => {
    expect(pyStrRepr('7\n')).toBe("'7\\n'");
    expect(`answer is not a single digit: ${pyRepr('٣٤')}`).toBe("answer is not a single digit: '٣٤'");
  });
});

describe('pyTruthy == bool()', () => {
  test.each<[string, PyValue | undefined, boolean]>([
    ['absent key', undefined, false],
    ['None', null, false],
    ['False', false, false],
    ['True', true, true],
    ['"false" is truthy', 'false', true],
    ['"0" is truthy', '0', true],
    ['empty str', '', false],
    ['0', 0n, false],
    ['-0 (int)', -0n, false],
    ['0.0', 0, false],
    ['-0.0', -0, false],
    ['1', 1n, true],
    ['0.5', 0.5, true],
    ['nan is truthy', NaN, true],
        ['0n', 0n, false],
    ['big int', 10n ** 30n, true],
    ['[]', [], false],
    ['[0]', [0n], true],
    ['{}', new Map(), false],
    ['{a: 0}', new Map([['a', 0n]]), true],
  ])('%s', (_name, v, expected) => {
    expect(pyTruthy(v)).toBe(expected);
  });
});
