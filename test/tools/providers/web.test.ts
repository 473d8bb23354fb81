import { parseWikipediaUrl, wikipediaArticleUrl } from '../../../tools/catalog/web-page.js';
import { callTool, fakeProviderContext, useFakeUpstreams } from './fakes/index.js';

const upstreams = useFakeUpstreams();

const fetchPage = (url: string, extra: Record<string, unknown> = {}) => callTool('fetch_webpage', { url, ...extra }, upstreams.ctx);

describe('Wikipedia URLs', () => {
  test.each([
    ['https://en.wikipedia.org/wiki/Mount_Everest', { lang: 'en', title: 'Mount Everest' }],
    ['https://en.m.wikipedia.org/wiki/Mount_Everest#Name', { lang: 'en', title: 'Mount Everest', fragment: 'Name' }],
    ['https://fr.wikipedia.org/wiki/Mont%20Everest', { lang: 'fr', title: 'Mont Everest' }],
    ['https://zh-yue.wikipedia.org/wiki/%E7%8F%A0%E7%A9%86', { lang: 'zh-yue', title: '珠穆' }],
    ['https://en.wikipedia.org/w/index.php?title=Plurale_(album)&action=view', { lang: 'en', title: 'Plurale (album)' }],
  ])('%s is an article', (url, page) => {
    expect(parseWikipediaUrl(url)).toEqual(page);
  });
  test.each(['https://www.wikipedia.org/', 'https://en.wikipedia.org/w/index.php?search=x', 'https://en.wikipedia.org/wiki/', 'https://example.org/wiki/X', 'https://en.wikipedia.org/w/index.php?title=X&oldid=5'])(
    '%s is not',
    (url) => expect(parseWikipediaUrl(url)).toBeUndefined(),
  );
  test('canonical article URLs are encoded like Wikipedia links', () => {
    expect(wikipediaArticleUrl({ lang: 'en', title: 'Plurale (album)' })).toBe('https://en.wikipedia.org/wiki/Plurale_(album)');
    expect(wikipediaArticleUrl({ lang: 'en', title: 'AC/DC: Live, 1992' })).toBe('https://en.wikipedia.org/wiki/AC/DC:_Live,_1992');
    expect(wikipediaArticleUrl({ lang: 'fr', title: 'Côte d’Ivoire', fragment: 'Nom du pays' })).toBe('https://fr.wikipedia.org/wiki/C%C3%B4te_d%E2%80%99Ivoire#Nom_du_pays');
  });
});

describe('fetch_webpage on Wikipedia', () => {
  test('reads the article through the parse API and converts it to Markdown', async () => {
    const r = await fetchPage('https://en.wikipedia.org/wiki/Mount_Everest');
    expect(r.ok).toBe(true);
    expect(r.resolvedUrl).toBe('https://en.wikipedia.org/wiki/Mount_Everest');
    const [req] = upstreams.fakes.servers.wikipedia.requests();
    expect(req.path).toBe('/en/w/api.php');
    expect(req.query).toEqual({ action: 'parse', page: 'Mount Everest', prop: 'text|langlinkscount', redirects: '1', format: 'json', formatversion: '2' });
    expect(req.headers['user-agent']).toMatch(/^AAR-Harness\//);
    const lines = r.text.split('\n');
    expect(lines.slice(0, 4)).toEqual(['# Mount Everest', '', 'Source: https://en.wikipedia.org/wiki/Mount_Everest', 'Language editions: 213']);
    expect(r.text).toContain('| Elevation | 8,848.86\u00a0m |');
    expect(r.text).toContain('| Range | [Himalayas](https://en.wikipedia.org/wiki/Himalayas) |');
    expect(r.text).toContain('[Mahalangur Himal](https://en.wikipedia.org/wiki/Mahalangur_Himal)');
    expect(r.text).toContain('## Name');
    expect(r.text).toContain('*Sagarmāthā*');
    expect(r.text).toContain('| Mount Everest |\n| --- | --- |\n| Elevation |');
    for (const clutter of ['[1]', '[2]', '[edit]', 'Edit section', 'tracking', '.infobox{', 'Eight-thousanders', 'upload.wikimedia']) expect(r.text).not.toContain(clutter);
  });

  test('follows redirects: resolvedUrl is the title the API resolved to', async () => {
    const r = await fetchPage('https://en.m.wikipedia.org/wiki/Everest');
    expect(r.ok).toBe(true);
    expect(r.resolvedUrl).toBe('https://en.wikipedia.org/wiki/Mount_Everest');
    expect(r.text.startsWith('# Mount Everest\n')).toBe(true);
    const viaFragment = await fetchPage('https://en.wikipedia.org/wiki/Chomolungma');
    expect(viaFragment.resolvedUrl).toBe('https://en.wikipedia.org/wiki/Mount_Everest#Name');
  });

  test('index.php URLs and other languages', async () => {
    const r = await fetchPage('https://en.wikipedia.org/w/index.php?title=Plurale_(album)');
    expect(r.resolvedUrl).toBe('https://en.wikipedia.org/wiki/Plurale_(album)');
    expect(r.text).toContain('[Mina](https://en.wikipedia.org/wiki/Mina_(Italian_singer))');
    const fr = await fetchPage('https://fr.wikipedia.org/wiki/Mont_Everest');
    expect(fr.resolvedUrl).toBe('https://fr.wikipedia.org/wiki/Mont_Everest');
    expect(upstreams.fakes.servers.wikipedia.requests().at(-1)?.path).toBe('/fr/w/api.php');
  });

  test('a missing page is a clear Error', async () => {
    const r = await fetchPage('https://en.wikipedia.org/wiki/No_Such_Page_Here');
    expect(r.ok).toBe(false);
    expect(r.text).toBe('Error: en.wikipedia.org has no page titled "No Such Page Here" (missingtitle: The page you specified doesn\'t exist.)');
    expect(r.providerError).toContain('missingtitle');
    expect(r.transient).toBeUndefined();
  });

  test('raw_html returns the article HTML', async () => {
    const r = await fetchPage('https://en.wikipedia.org/wiki/Mount_Everest', { raw_html: true });
    expect(r.text.startsWith('<div class="mw-content-ltr mw-parser-output"')).toBe(true);
    expect(r.resolvedUrl).toBe('https://en.wikipedia.org/wiki/Mount_Everest');
  });

  test('an API outage after retries is a transient Error', async () => {
    upstreams.fakes.servers.wikipedia.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
    const r = await fetchPage('https://en.wikipedia.org/wiki/Mount_Everest');
    expect(r).toMatchObject({ ok: false, transient: true });
    expect(r.text).toContain('HTTP 503 after 3 attempts');
  });
});

describe('fetch_webpage on other sites', () => {
  test('converts HTML to Markdown under the page title, with absolute links', async () => {
    const url = `${upstreams.fakes.servers.web.url}/article.html`;
    const r = await fetchPage(url);
    expect(r.ok).toBe(true);
    expect(r.resolvedUrl).toBe(url);
    expect(r.text.split('\n').slice(0, 3)).toEqual(['# An Article & More', '', `Source: ${url}`]);
    expect(r.text).toContain('Some **bold** text and [a relative link](' + upstreams.fakes.servers.web.url + '/other.html).');
    expect(r.text).toContain('| Year | Value |\n| --- | --- |\n| 2020 | 42 |');
    expect(r.text).not.toContain('var x');
    expect(upstreams.fakes.servers.web.requests()[0].headers['user-agent']).toMatch(/^Mozilla\/5\.0/);
  });

  test('follows a redirect: resolvedUrl is the final URL', async () => {
    const r = await fetchPage(`${upstreams.fakes.servers.web.url}/moved`);
    expect(r.resolvedUrl).toBe(`${upstreams.fakes.servers.web.url}/article.html`);
    expect(r.text).toContain(`Source: ${upstreams.fakes.servers.web.url}/article.html`);
  });

  test('a page without a title is headed by its URL', async () => {
    const r = await fetchPage(`${upstreams.fakes.servers.web.url}/untitled.html`);
    expect(r.text.startsWith(`# ${upstreams.fakes.servers.web.url}/untitled.html\n`)).toBe(true);
  });

  test('text and JSON pass through; raw_html returns the HTML', async () => {
    expect((await fetchPage(`${upstreams.fakes.servers.web.url}/notes.txt`)).text).toBe('plain *text*, kept as is\n');
    expect(JSON.parse((await fetchPage(`${upstreams.fakes.servers.web.url}/data.json`)).text)).toEqual({ a: 1, b: [1, 2] });
    expect((await fetchPage(`${upstreams.fakes.servers.web.url}/article.html`, { raw_html: true })).text).toMatch(/^<!DOCTYPE html>/);
  });

  test('errors: 404, a PDF, an unreachable host', async () => {
    const missing = await fetchPage(`${upstreams.fakes.servers.web.url}/gone`);
    expect(missing).toMatchObject({ ok: false, text: `Error: fetching ${upstreams.fakes.servers.web.url}/gone failed with HTTP 404`, providerError: 'HTTP 404' });
    expect(missing.transient).toBeUndefined();
    const pdf = await fetchPage(`${upstreams.fakes.servers.web.url}/report.pdf`);
    expect(pdf.text).toContain('is application/pdf, not a page that can be read as text');
    const down = await callTool('fetch_webpage', { url: 'http://127.0.0.1:1/x' }, fakeProviderContext(upstreams.fakes, { http: { defaultLimits: { maxAttempts: 1 }, allowAddresses: ['127.0.0.1:1'] } }));
    expect(down).toMatchObject({ ok: false, transient: true });
    expect(down.text).toContain('network error');
  });

  test('a slow page times out', async () => {
    upstreams.fakes.servers.web.delayMs = 300;
    const slow = fakeProviderContext(upstreams.fakes, { http: { defaultLimits: { timeoutMs: 50, maxAttempts: 1 } } });
    const r = await callTool('fetch_webpage', { url: `${upstreams.fakes.servers.web.url}/article.html` }, slow);
    expect(r).toMatchObject({ ok: false, transient: true });
    expect(r.text).toContain('timeout after 50 ms');
  });
});
