import { canonicalPage, referenceNormalizeUrl } from '../../../tools/wikipedia/page-identity.js';

describe("the reference verifier's URL normalisation", () => {
  test.each([
    ['https://en.wikipedia.org/wiki/Danube/', 'https://en.wikipedia.org/wiki/Danube'],
    ['https://en.wikipedia.org/wiki/Danube///', 'https://en.wikipedia.org/wiki/Danube'],
    ['https://en.m.wikipedia.org/wiki/Danube', 'https://en.wikipedia.org/wiki/Danube'],
    ['https://de.m.wikipedia.org/wiki/Donau', 'https://de.m.wikipedia.org/wiki/Donau'],
    ['https://en.wikipedia.org/wiki/Danube?action=raw#History', 'https://en.wikipedia.org/wiki/Danube'],
    ['https://en.wikipedia.org/wiki/Danube#Hist?ory', 'https://en.wikipedia.org/wiki/Danube'],
    ['https://en.wikipedia.org/wiki/Danube/?x=1', 'https://en.wikipedia.org/wiki/Danube/'],
    ['http://en.wikipedia.org/wiki/Caf%C3%A9', 'http://en.wikipedia.org/wiki/Caf%C3%A9'],
  ])('%s -> %s', (input, expected) => {
    expect(referenceNormalizeUrl(input)).toBe(expected);
  });
});

describe('canonical page identity (PVR)', () => {
  const same = [
    'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait',
    'http://en.wikipedia.org/wiki/Café au lait',
    'https://en.m.wikipedia.org/wiki/caf%C3%A9_au_lait/',
    'https://EN.wikipedia.org/wiki/Café_au_lait#History',
    'https://en.wikipedia.org/w/index.php?title=Caf%C3%A9_au_lait&oldid=1',
    'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait?action=render',
  ];
  test.each(same)('%s is the same page', (url) => {
    expect(canonicalPage(url)).toBe('en.wikipedia.org/wiki/Café au lait');
  });
  test('languages stay apart', () => {
    expect(canonicalPage('https://de.wikipedia.org/wiki/Donau')).not.toBe(canonicalPage('https://en.wikipedia.org/wiki/Donau'));
    expect(canonicalPage('https://de.m.wikipedia.org/wiki/Donau')).toBe('de.wikipedia.org/wiki/Donau');
  });
  test('other sites: scheme, www and trailing slash folded, path case kept', () => {
    expect(canonicalPage('http://www.example.org/A/b/?q=1')).toBe('example.org/A/b');
    expect(canonicalPage('https://example.org/a/B')).not.toBe(canonicalPage('https://example.org/a/b'));
  });
  test('not a URL', () => {
    expect(canonicalPage('Danube')).toBeNull();
    expect(canonicalPage('ftp://x.org/a')).toBeNull();
  });
});
