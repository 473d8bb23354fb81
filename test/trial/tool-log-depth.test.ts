import { jsonTextDepth, nestsDeeperThan, valueNestsDeeperThan } from '../../trial/tool-log.js';

describe('jsonTextDepth', () => {
  test('counts nested arrays and objects, not brackets inside strings', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('"[[{{"')).toBe(0);
    expect(jsonTextDepth('{"a": [1, {"b": "]]\\"[["}], "c": {}}')).toBe(3);
    expect(jsonTextDepth('[[]]')).toBe(2);
  });

  test('a million levels take one scan and no stack', () => {
    const levels = 1_000_000;
    expect(jsonTextDepth('['.repeat(levels) + ']'.repeat(levels))).toBe(levels);
  });
});

describe('nestsDeeperThan', () => {
  test('agrees with the scan, also where brackets sit in strings', () => {
    const deep = '['.repeat(1000) + ']'.repeat(1000);
    expect(nestsDeeperThan(deep, 990)).toBe(true);
    expect(nestsDeeperThan(deep, 1000)).toBe(false);
    const flat = JSON.stringify({ text: '['.repeat(2000), list: Array.from({ length: 2000 }, () => []) });
    expect(jsonTextDepth(flat)).toBe(3);
    expect(nestsDeeperThan(flat, 990)).toBe(false);
    expect(nestsDeeperThan('{"a": [1]}', 1)).toBe(true);
    expect(nestsDeeperThan('{"a": [1]}', 2)).toBe(false);
  });
});

describe('valueNestsDeeperThan', () => {
  test('agrees with nestsDeeperThan on the text JSON.parse read it from', () => {
    const texts = [
      '1', '"[[{{"', '[]', '{}', '[[]]', '{"a": [1, {"b": "]]\\"[["}], "c": {}}', '{"a": [1]}',
      '['.repeat(1000) + ']'.repeat(1000), '{"a":'.repeat(991) + '1' + '}'.repeat(991), '{"a":'.repeat(990) + '1' + '}'.repeat(990),
      JSON.stringify({ text: '['.repeat(2000), list: Array.from({ length: 2000 }, () => []) }),
    ];
    for (const text of texts) {
      for (const depth of [0, 1, 2, 3, 989, 990, 991, 1000]) {
        expect([text.slice(0, 20), depth, valueNestsDeeperThan(JSON.parse(text), depth)]).toEqual([text.slice(0, 20), depth, nestsDeeperThan(text, depth)]);
      }
    }
  });

  test('a million levels: the walk stops at the depth asked', () => {
    const levels = 1_000_000;
    expect(valueNestsDeeperThan(JSON.parse('['.repeat(levels) + ']'.repeat(levels)), 990)).toBe(true);
  });
});
