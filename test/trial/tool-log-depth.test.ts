import { jsonTextDepth } from '../../trial/tool-log.js';

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
