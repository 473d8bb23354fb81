import { formatCountryArea } from '../../../tools/catalog/countries.js';
import { formatCryptoVolume, formatStockPrice } from '../../../tools/catalog/finance.js';
import { formatPlaces } from '../../../tools/catalog/maps-formats.js';
import { formatPage } from '../../../tools/catalog/web-page.js';
import { formatWebSearch } from '../../../tools/catalog/web.js';
import { errorResult, okResult, pyRound } from '../../../tools/providers/formats.js';
import { htmlTitle, htmlToMarkdown, htmlToText } from '../../../tools/providers/html-markdown.js';
import { selectPaths } from '../../../tools/providers/select-path.js';

describe('formats', () => {
  test("pyRound is Python's round(x, n): half to even on the exact binary value", () => {
    // Each pair is [x, Python's round(x, 2)] (checked with CPython 3.11).
    const cases: [number, number][] = [
      [17.549999237060547, 17.55], [0.123456789, 0.12], [0.125, 0.12], [0.375, 0.38], [2.675, 2.67], [1.005, 1.0],
      [-0.125, -0.12], [-2.675, -2.67], [123456.785, 123456.79], [1e-9, 0], [5e-324, 0], [1e22, 1e22], [0.995, 0.99], [7.5, 7.5],
    ];
    for (const [x, expected] of cases) expect([x, pyRound(x, 2)]).toEqual([x, expected]);
    expect(pyRound(2.5, 0)).toBe(2);
    expect(pyRound(3.5, 0)).toBe(4);
    expect(pyRound(Number.NaN, 2)).toBeNaN();
  });

  test('results', () => {
    expect(okResult('x')).toEqual({ ok: true, text: 'x' });
    expect(okResult('x', 'https://a')).toEqual({ ok: true, text: 'x', resolvedUrl: 'https://a' });
    expect(errorResult('boom')).toEqual({ ok: false, text: 'Error: boom' });
    expect(errorResult('Error: boom', 'HTTP 500', { transient: true })).toEqual({ ok: false, text: 'Error: boom', providerError: 'HTTP 500', transient: true });
  });

  test('JSON with a 2-space indent, keys in the documented order', () => {
    expect(formatCountryArea('Denmark', 43094)).toBe('{\n  "country": "Denmark",\n  "area_km2": 43094\n}');
    expect(formatStockPrice('GSK', '2000-12-27', 17.549999237060547)).toBe('{\n  "ticker": "GSK",\n  "date": "2000-12-27",\n  "close_price": 17.55,\n  "currency": "USD"\n}');
    expect(JSON.parse(formatCryptoVolume('BTCUSDT', '2024-06-15', 1.5, 2.5))).toEqual({ symbol: 'BTCUSDT', date: '2024-06-15', volume: 1.5, quote_volume: 2.5 });
    expect(JSON.parse(formatPlaces([]))).toEqual({ count: 0, places: [] });
    expect(JSON.parse(formatWebSearch({ organic: [], credits: 1 }))).toEqual({ organic: [] });
    expect(JSON.parse(formatWebSearch({ organic: [1, 2, 3], answerBox: { a: 1 } }, ['organic', 'answerBox', 'topStories'], 2))).toEqual({ organic: [1, 2], answerBox: { a: 1 }, topStories: null });
  });

  test('fetch_webpage page header', () => {
    expect(formatPage('T', 'https://x/T', '\nbody\n', 12)).toBe('# T\n\nSource: https://x/T\nLanguage editions: 12\n\nbody\n');
    expect(formatPage('T', 'https://x/T', 'body')).toBe('# T\n\nSource: https://x/T\n\nbody\n');
  });
});

describe('selectPaths', () => {
  const data = { daily: { time: ['2024-01-01', '2024-01-02'], rain: [0.5, 1.5] }, nested: [{ a: { b: 3 } }], tz: 'GMT' };
  test('dotted keys with [index], negative indexes from the end', () => {
    expect(selectPaths(data, ['daily.rain[1]', 'nested[0].a.b', 'daily.rain[-1]', 'daily', 'tz[1]'])).toEqual({
      'daily.rain[1]': 1.5, 'nested[0].a.b': 3, 'daily.rain[-1]': 1.5, daily: data.daily, 'tz[1]': 'M',
    });
  });
  test('a path that leads nowhere is null for that path alone, as the golden values\' weather tool answered', () => {
    expect(selectPaths(data, ['daily.snow[0]', 'weekly', 'daily[0]', 'daily.rain[0].x', 'daily..rain', 'daily.time.0', 'daily.rain[5]', 'daily.rain[0]'])).toEqual({
      'daily.snow[0]': null, weekly: null, 'daily[0]': null, 'daily.rain[0].x': null, 'daily..rain': null, 'daily.time.0': null, 'daily.rain[5]': null, 'daily.rain[0]': 0.5,
    });
  });
  test('a bracket that is not [integer] ends its segment there', () => {
    expect(selectPaths(data, ['daily.rain[x]', 'daily.rain[1'])).toEqual({ 'daily.rain[x]': [0.5, 1.5], 'daily.rain[1': [0.5, 1.5] });
  });
});

describe('HTML helpers', () => {
  test('text, entities, titles', () => {
    expect(htmlToText('a &amp; b &#233; &#x41; &eacute;&nbsp;&bogus; x &lt; y')).toBe('a & b é A é &bogus; x < y');
    expect(htmlToText('Turn <b>left</b>,<div>then go</div>')).toBe('Turn left, then go');
    expect(htmlToText('Turn <b>right</b> onto <b>B9</b><div style="font-size:0.9em">Pass by Caf&eacute; &amp; Lodge</div>')).toBe('Turn right onto B9 Pass by Café & Lodge');
    expect(htmlTitle('<html><head><title> A &amp; B </title>')).toBe('A & B');
    expect(htmlTitle('<p>none</p>')).toBeUndefined();
  });
  test('Markdown: lists inside table cells flatten to one line; fragment links keep their text', () => {
    const md = htmlToMarkdown('<table><tr><th>Genre</th><td><ul><li>Pop</li><li>Rock | Roll</li></ul></td></tr></table><p><a href="#x">jump</a> <a href="https://a.org/b">b</a></p>', 'https://a.org/');
    expect(md).toBe('| Genre | Pop; Rock \\| Roll |\n| --- | --- |\n\njump [b](https://a.org/b)');
  });
});
