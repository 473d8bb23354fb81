/**
 * Each part of the canonical page identity (METRICS.md, `pvr`), scored through `scoreTrial`: a leg with one
 * page stop, a log with one fetch written another way; pvr is 1 when both open the same page, else 0.
 */
import { canonicalPage } from '../../../tools/wikipedia/page-identity.js';
import { scoreTrial } from '../../../tasks/aar/scoring/score.js';
import { fetchPage, makeLeg, pageStop } from '../../helpers/legs.js';

const pvrOf = (legUrl: string, fetched: string, extra: Record<string, unknown> = {}) => scoreTrial(makeLeg([pageStop(legUrl)]), '3', fetchPage(fetched, extra)).pvr;

const CAFE = 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait';

describe('the same page, written another way', () => {
  test.each([
    ['scheme http', 'http://en.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['scheme in capitals', 'HTTPS://en.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['mobile host', 'https://en.m.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['host in capitals', 'https://EN.M.Wikipedia.ORG/wiki/Caf%C3%A9_au_lait'],
    ['www host', 'https://www.en.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['index.php?title=', 'https://en.wikipedia.org/w/index.php?title=Caf%C3%A9_au_lait'],
    ['index.php?title= with other parameters first', 'https://en.wikipedia.org/w/index.php?action=raw&title=Caf%C3%A9_au_lait&oldid=12'],
    ['index.php?title= with + for space', 'https://en.m.wikipedia.org/w/index.php?title=Caf%C3%A9+au+lait'],
    ['decoded', 'https://en.wikipedia.org/wiki/Café_au_lait'],
    ['lower-case escapes', 'https://en.wikipedia.org/wiki/Caf%c3%a9_au_lait'],
    ['every character escaped', 'https://en.wikipedia.org/wiki/%43%61%66%C3%A9%5F%61%75%5F%6C%61%69%74'],
    ['spaces', 'https://en.wikipedia.org/wiki/Café au lait'],
    ['escaped spaces', 'https://en.wikipedia.org/wiki/Caf%C3%A9%20au%20lait'],
    ['doubled and outer underscores', 'https://en.wikipedia.org/wiki/_Caf%C3%A9__au_lait_'],
    ['first letter lower-case', 'https://en.wikipedia.org/wiki/caf%C3%A9_au_lait'],
    ['trailing slash', 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait/'],
    ['trailing slashes', 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait///'],
    ['query', 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait?action=render'],
    ['fragment', 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait#History'],
    ['fragment holding a ?', 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait#Hist?ory'],
    ['query and fragment', 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait/?oldid=1#x'],
    ['surrounding white space', '  https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait \n'],
    ['all at once', 'http://EN.m.wikipedia.org/w/index.php?title=caf%C3%A9+au_lait&x=1#y'],
  ])('%s: %s', (_, fetched) => {
    expect(pvrOf(CAFE, fetched)).toBe(1);
    // and the other way round: the leg may hold any spelling too
    expect(pvrOf(fetched, CAFE)).toBe(1);
  });

  test('first letter: non-ASCII letters fold too; the other letters keep their case', () => {
    expect(pvrOf('https://en.wikipedia.org/wiki/%C3%89lan_vital', 'https://en.wikipedia.org/wiki/élan_vital')).toBe(1);
    expect(pvrOf('https://en.wikipedia.org/wiki/Black_Sea', 'https://en.wikipedia.org/wiki/black_Sea')).toBe(1);
    expect(pvrOf('https://en.wikipedia.org/wiki/Black_Sea', 'https://en.wikipedia.org/wiki/Black_sea')).toBe(0);
    expect(pvrOf('https://en.wikipedia.org/wiki/Black_Sea', 'https://en.wikipedia.org/wiki/BLACK_SEA')).toBe(0);
    expect(pvrOf('https://en.wikipedia.org/wiki/%F0%9D%90%80bc', 'https://en.wikipedia.org/wiki/%F0%9D%90%80bc')).toBe(1);
  });

  test('a literal % in a title, bare (not a valid escape) or escaped, is the same page', () => {
    expect(pvrOf('https://en.wikipedia.org/wiki/100%25_Fun', 'https://en.wikipedia.org/wiki/100%_Fun')).toBe(1);
    expect(canonicalPage('https://en.wikipedia.org/wiki/100%_Fun')).toBe('en.wikipedia.org/wiki/100% Fun');
    // a single-byte escape that is not UTF-8 reads as that byte's Latin-1 character
    expect(canonicalPage('https://en.wikipedia.org/wiki/Caf%E9')).toBe('en.wikipedia.org/wiki/Café');
  });

  test('slashes inside a title are kept', () => {
    expect(pvrOf('https://en.wikipedia.org/wiki/AC/DC', 'https://en.wikipedia.org/wiki/AC%2FDC')).toBe(1);
    expect(pvrOf('https://en.wikipedia.org/wiki/AC/DC', 'https://en.wikipedia.org/wiki/ACDC')).toBe(0);
  });

  test('the page a fetch resolved to counts (redirects)', () => {
    expect(pvrOf(CAFE, 'https://en.wikipedia.org/wiki/Cafe_au_lait', { resolved_url: 'https://en.m.wikipedia.org/wiki/caf%C3%A9_au_lait#top' })).toBe(1);
    expect(pvrOf(CAFE, 'https://en.wikipedia.org/wiki/Cafe_au_lait')).toBe(0);
    expect(pvrOf(CAFE, 'https://en.wikipedia.org/wiki/Cafe_au_lait', { resolved_url: 'https://en.wikipedia.org/wiki/Coffee' })).toBe(0);
  });
});

describe('different pages', () => {
  test.each([
    ['another language', 'https://de.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['another language, mobile', 'https://fr.m.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['no language host', 'https://wikipedia.org/wiki/Caf%C3%A9_au_lait'],
    ['another site', 'https://en.wikipedia.com/wiki/Caf%C3%A9_au_lait'],
    ['another title', 'https://en.wikipedia.org/wiki/Caf%C3%A9'],
    ['another path', 'https://en.wikipedia.org/w/Caf%C3%A9_au_lait'],
    ['index.php without a title', 'https://en.wikipedia.org/w/index.php?search=Caf%C3%A9_au_lait'],
    ['a title parameter on another script', 'https://en.wikipedia.org/w/api.php?title=Caf%C3%A9_au_lait'],
    ['an accent dropped', 'https://en.wikipedia.org/wiki/Cafe_au_lait'],
    ['not a URL', 'Café au lait'],
    ['not http', 'ftp://en.wikipedia.org/wiki/Caf%C3%A9_au_lait'],
  ])('%s: %s', (_, fetched) => {
    expect(pvrOf(CAFE, fetched)).toBe(0);
  });

  test('language hosts are kept apart, each with its mobile host folded', () => {
    expect(pvrOf('https://de.wikipedia.org/wiki/Donau', 'https://de.m.wikipedia.org/wiki/donau')).toBe(1);
    expect(pvrOf('https://de.wikipedia.org/wiki/Donau', 'https://en.wikipedia.org/wiki/Donau')).toBe(0);
    expect(pvrOf('https://zh-min-nan.wikipedia.org/wiki/A', 'http://zh-min-nan.m.wikipedia.org/wiki/a')).toBe(1);
    expect(pvrOf('https://simple.wikipedia.org/wiki/Danube', 'https://en.wikipedia.org/wiki/Danube')).toBe(0);
  });
});

describe('pages outside Wikipedia', () => {
  test.each([
    ['http://example.org/a/B', 1],
    ['https://www.example.org/a/B/', 1],
    ['https://m.example.org/a/B?x=1#y', 1],
    ['https://EXAMPLE.org/a/%42', 1],
    ['https://example.org/a/b', 0],
    ['https://example.org/a', 0],
    ['https://example.com/a/B', 0],
  ])('https://example.org/a/B vs %s -> %p', (fetched, pvr) => {
    expect(pvrOf('https://example.org/a/B', fetched)).toBe(pvr);
  });

  test('text that is not a URL is compared as it is', () => {
    expect(pvrOf('Danube', 'Danube')).toBe(1);
    expect(pvrOf('Danube', 'danube')).toBe(0);
  });
});

test('canonical keys', () => {
  expect(canonicalPage('https://en.m.wikipedia.org/w/index.php?title=black_Sea&oldid=3')).toBe('en.wikipedia.org/wiki/Black Sea');
  expect(canonicalPage('https://en.wikipedia.org/wiki/')).toBe('en.wikipedia.org/wiki/');
  expect(canonicalPage('https://en.wikipedia.org/w/index.php')).toBe('en.wikipedia.org/w/index.php');
  expect(canonicalPage('https://m.example.org/')).toBe('example.org');
  expect(canonicalPage('https://www.m.example.org/x')).toBe('example.org/x');
  expect(canonicalPage('https://example.org/a%2')).toBe('example.org/a%2');
});

describe('canonical keys at the edges of the host and escape rules', () => {
  test.each([
    // a bare % is no escape: decoding fails, and each valid %XX then reads as its byte (Latin-1), any hex case
    ['https://example.org/%_%41%4a%4A%6f%30%39%46%66%af%7a%7A', 'example.org/%_AJJo09Ff\u00afzz'],
    ['https://en.wikipedia.org/wiki/%_%41%4a%6f%30%39%46%66%e9', 'en.wikipedia.org/wiki/% AJo09Ff\u00e9'],
    // white space that the URL parser keeps but trim() removes
    ['\u00a0https://en.wikipedia.org/wiki/A\u2003', 'en.wikipedia.org/wiki/A'],
    ['https://example.org/a/B//', 'example.org/a/B'],
    ['https://test2.wikipedia.org/wiki/a', 'test2.wikipedia.org/wiki/A'],
    ['https://en.wikipedia.org.evil.com/wiki/a', 'en.wikipedia.org.evil.com/wiki/a'],
    ['https://x.en.wikipedia.org/wiki/a', 'x.en.wikipedia.org/wiki/a'],
    ['https://en.mx.wikipedia.org/wiki/a', 'en.mx.wikipedia.org/wiki/a'],
    ['https://enxwikipedia.org/wiki/a', 'enxwikipedia.org/wiki/a'],
    ['https://en.wikipediaxorg/wiki/a', 'en.wikipediaxorg/wiki/a'],
    ['https://awww.example.org/a', 'awww.example.org/a'],
    ['https://wwwx.example.org/a', 'wwwx.example.org/a'],
    ['https://am.example.org/a', 'am.example.org/a'],
    ['https://mx.example.org/a', 'mx.example.org/a'],
  ])('%j -> %j', (url, key) => {
    expect(canonicalPage(url)).toBe(key);
  });

  test('a page URL written with white space that trim() removes still counts', () => {
    expect(pvrOf('https://en.wikipedia.org/wiki/A', '\u00a0https://en.wikipedia.org/wiki/A')).toBe(1);
  });
});
