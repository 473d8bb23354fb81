import { formatCountryArea } from '../../../tools/catalog/countries.js';
import { formatCryptoVolume, formatStockPrice } from '../../../tools/catalog/finance.js';
import { formatPlaces } from '../../../tools/catalog/maps-formats.js';
import { formatPage } from '../../../tools/catalog/web-page.js';
import { formatWebSearch } from '../../../tools/catalog/web.js';
import { errorResult, metersToKm, okResult, roundPrice, secondsToMinutes } from '../../../tools/providers/formats.js';
import { decodeEntities, htmlTitle, htmlToMarkdown, htmlToText } from '../../../tools/providers/html-markdown.js';
import { selectPaths } from '../../../tools/providers/select-path.js';

describe('formats', () => {
  test('unit conversions', () => {
    expect(metersToKm(169850)).toBe(169.85);
    expect(metersToKm(1242.4)).toBe(1.242);
    expect(secondsToMinutes(21930)).toBe(365.5);
    expect(secondsToMinutes(59)).toBe(1);
    expect(roundPrice(17.549999237060547)).toBe(17.55);
    expect(roundPrice(0.123456789)).toBe(0.123457);
  });

  test('results', () => {
    expect(okResult('x')).toEqual({ ok: true, text: 'x' });
    expect(okResult('x', 'https://a')).toEqual({ ok: true, text: 'x', resolvedUrl: 'https://a' });
    expect(errorResult('boom')).toEqual({ ok: false, text: 'Error: boom' });
    expect(errorResult('Error: boom', 'HTTP 500', { transient: true })).toEqual({ ok: false, text: 'Error: boom', providerError: 'HTTP 500', transient: true });
  });

  test('JSON with a 2-space indent, keys in the documented order', () => {
    expect(formatCountryArea('Denmark', 43094)).toBe('{\n  "country": "Denmark",\n  "area_km2": 43094\n}');
    expect(formatStockPrice('GSK', '2000-12-27', 17.549999237060547, 'USD')).toBe('{\n  "ticker": "GSK",\n  "date": "2000-12-27",\n  "close_price": 17.55,\n  "currency": "USD"\n}');
    expect(JSON.parse(formatCryptoVolume('BTCUSDT', '2024-06-15', 1.5, 2.5))).toEqual({ symbol: 'BTCUSDT', date: '2024-06-15', volume: 1.5, quote_volume: 2.5 });
    expect(JSON.parse(formatPlaces([]))).toEqual({ count: 0, places: [] });
    expect(Object.keys(JSON.parse(formatWebSearch([])))).toEqual(['organic']);
  });

  test('fetch_webpage page header', () => {
    expect(formatPage('T', 'https://x/T', '\nbody\n', 12)).toBe('# T\n\nSource: https://x/T\nLanguage editions: 12\n\nbody\n');
    expect(formatPage('T', 'https://x/T', 'body')).toBe('# T\n\nSource: https://x/T\n\nbody\n');
  });
});

describe('selectPaths', () => {
  const data = { daily: { time: ['2024-01-01', '2024-01-02'], rain: [0.5, 1.5] }, nested: [{ a: { b: 3 } }] };
  test('dotted keys with indexes', () => {
    expect(selectPaths(data, ['daily.rain[1]', 'daily.time.0', 'nested[0].a.b', 'daily.rain[-1]', 'daily'])).toEqual({
      ok: true,
      values: { 'daily.rain[1]': 1.5, 'daily.time.0': '2024-01-01', 'nested[0].a.b': 3, 'daily.rain[-1]': 1.5, daily: data.daily },
    });
  });
  test('errors say what is there', () => {
    expect(selectPaths(data, ['daily.snow[0]'])).toEqual({ ok: false, error: 'select path "daily.snow[0]": daily has no key "snow"; available keys: time, rain' });
    expect(selectPaths(data, ['weekly'])).toEqual({ ok: false, error: 'select path "weekly": (root) has no key "weekly"; available keys: daily, nested' });
    expect(selectPaths(data, ['daily[0]'])).toEqual({ ok: false, error: 'select path "daily[0]": daily is not a list' });
    expect(selectPaths(data, ['daily.rain[0].x'])).toMatchObject({ ok: false, error: 'select path "daily.rain[0].x": daily.rain[0] has no key "x"' });
    expect(selectPaths(data, ['daily..rain'])).toMatchObject({ ok: false, error: expect.stringContaining('malformed') });
  });
});

describe('HTML helpers', () => {
  test('text, entities, titles', () => {
    expect(decodeEntities('a &amp; b &#233; &#x41; &nbsp;&bogus;')).toBe('a & b é A \u00a0&bogus;');
    expect(htmlToText('Turn <b>left</b>,<div>then go</div>')).toBe('Turn left, then go');
    expect(htmlTitle('<html><head><title> A &amp; B </title>')).toBe('A & B');
    expect(htmlTitle('<p>none</p>')).toBeUndefined();
  });
  test('Markdown: lists inside table cells flatten to one line; fragment links keep their text', () => {
    const md = htmlToMarkdown('<table><tr><th>Genre</th><td><ul><li>Pop</li><li>Rock | Roll</li></ul></td></tr></table><p><a href="#x">jump</a> <a href="https://a.org/b">b</a></p>', 'https://a.org/');
    expect(md).toBe('| Genre | Pop; Rock \\| Roll |\n| --- | --- |\n\njump [b](https://a.org/b)');
  });
});
