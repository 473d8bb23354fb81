import { json, type FakeReply, type LoggedRequest } from './server.js';

/**
 * The MediaWiki action API (`/<lang>/w/api.php`, action=parse, formatversion=2) over a few articles, and a
 * plain website with HTML, redirects, text, JSON and a PDF.
 */

const EVEREST_HTML = `<div class="mw-content-ltr mw-parser-output" lang="en" dir="ltr">
<div class="shortdescription nomobile noexcerpt noprint searchaux" style="display:none">Earth's highest mountain</div>
<style data-mw-deduplicate="TemplateStyles:r1">.infobox{border:1px}</style>
<table class="infobox"><tbody>
<tr><th colspan="2" class="infobox-above">Mount Everest</th></tr>
<tr><td colspan="2"><span typeof="mw:File"><img src="//upload.wikimedia.org/everest.jpg" alt="Everest"></span></td></tr>
<tr><th scope="row" class="infobox-label">Elevation</th><td class="infobox-data">8,848.86&nbsp;m<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup></td></tr>
<tr><th scope="row" class="infobox-label">Range</th><td class="infobox-data"><a href="/wiki/Himalayas" title="Himalayas">Himalayas</a></td></tr>
</tbody></table>
<p><b>Mount Everest</b> is Earth's highest mountain above sea level, located in the <a href="/wiki/Mahalangur_Himal" title="Mahalangur Himal">Mahalangur Himal</a> sub-range.<sup id="cite_ref-2" class="reference"><a href="#cite_note-2">[2]</a></sup></p>
<div class="mw-heading mw-heading2"><h2 id="Name">Name</h2><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Mount_Everest&amp;action=edit&amp;section=1" title="Edit section: Name">edit</a><span class="mw-editsection-bracket">]</span></span></div>
<p>Known in Nepal as <i>Sagarmāthā</i>.</p>
<script>console.log('tracking')</script>
<div class="navbox" role="navigation"><a href="/wiki/Eight-thousander">Eight-thousanders</a></div>
</div>`;

export interface FakeArticle {
  title: string;
  pageid: number;
  html: string;
  langlinks: number;
}

export const WIKI_ARTICLES: Record<string, Record<string, FakeArticle>> = {
  en: {
    'Mount Everest': { title: 'Mount Everest', pageid: 42179, html: EVEREST_HTML, langlinks: 213 },
    'Plurale (album)': { title: 'Plurale (album)', pageid: 3001, html: '<div class="mw-parser-output"><p>Plurale is an album by <a href="/wiki/Mina_(Italian_singer)">Mina</a>.</p></div>', langlinks: 2 },
  },
  fr: {
    'Mont Everest': { title: 'Mont Everest', pageid: 1455, html: '<div class="mw-parser-output"><p>Le <b>mont Everest</b> est une montagne.</p></div>', langlinks: 213 },
  },
};

/** Redirect titles per wiki: from -> [to, tofragment?]. */
export const WIKI_REDIRECTS: Record<string, Record<string, [string, string?]>> = {
  en: { Everest: ['Mount Everest'], 'Chomolungma': ['Mount Everest', 'Name'] },
};

function parse(lang: string, q: Record<string, string>): FakeReply {
  if (q.action !== 'parse' || q.format !== 'json') return json({ error: { code: 'badvalue', info: 'Unrecognized value for parameter "action".' } });
  // MediaWiki capitalises the first letter and treats underscores as spaces.
  let title = (q.page ?? '').replace(/_/g, ' ');
  title = title.charAt(0).toUpperCase() + title.slice(1);
  const redirects: { from: string; to: string; tofragment?: string }[] = [];
  const redirect = q.redirects ? WIKI_REDIRECTS[lang]?.[title] : undefined;
  if (redirect) {
    redirects.push({ from: title, to: redirect[0], ...(redirect[1] ? { tofragment: redirect[1] } : {}) });
    title = redirect[0];
  }
  const article = WIKI_ARTICLES[lang]?.[title];
  if (!article) {
    return json({ error: { code: 'missingtitle', info: "The page you specified doesn't exist.", docref: 'See https://en.wikipedia.org/w/api.php for API usage.' }, servedby: 'mw-api-ext.eqiad.main' });
  }
  const props = (q.prop ?? '').split('|');
  return json({
    parse: {
      title: article.title,
      pageid: article.pageid,
      ...(redirects.length ? { redirects } : {}),
      ...(props.includes('text') ? { text: article.html } : {}),
      ...(props.includes('langlinkscount') ? { langlinkscount: article.langlinks } : {}),
    },
  });
}

export function wikipediaHandler(req: LoggedRequest): FakeReply {
  const m = /^\/([a-z-]+)\/w\/api\.php$/.exec(req.path);
  if (!m) return { status: 404, body: 'no such wiki path' };
  return parse(m[1], req.query);
}

const html = (body: string, status = 200): FakeReply => ({ status, body, headers: { 'content-type': 'text/html; charset=UTF-8' } });

export function webPagesHandler(req: LoggedRequest): FakeReply {
  switch (req.path) {
    case '/article.html':
      return html(
        '<!DOCTYPE html><html><head><title>An Article &amp; More</title><style>p{}</style></head><body><nav><a href="/">Home</a></nav>' +
          '<h1>Heading</h1><p>Some <strong>bold</strong> text and <a href="other.html">a relative link</a>.</p>' +
          '<table><tr><th>Year</th><th>Value</th></tr><tr><td>2020</td><td>42</td></tr></table><script>var x=1</script></body></html>',
      );
    case '/moved':
      return { status: 301, headers: { location: '/article.html' } };
    case '/notes.txt':
      return { body: 'plain *text*, kept as is\n' };
    case '/data.json':
      return { body: { a: 1, b: [1, 2] } };
    case '/report.pdf':
      return { body: '%PDF-1.4 binary', headers: { 'content-type': 'application/pdf' } };
    case '/untitled.html':
      return html('<p>No title here</p>');
    default:
      return html('<html><head><title>Not Found</title></head><body>Not Found</body></html>', 404);
  }
}
