import { canonicalUrl } from '../../../../tools/store/canonical.js';
import { normText, type PageFacts, type UpstreamFacts } from './facts.js';
import { between, json, unit, type StandInReply, type StandInRequest } from './reply.js';

/**
 * Wikipedia (the MediaWiki action API's parse, and the article pages as a browser gets them, skin and all),
 * Serper's Google search and an OpenAI-style chat completions API as stand-ins. Pages hold every fact the
 * legs' page stops read from them and their onward links; any other title is a short made-up article, but
 * a title with "Atlantis" or "Nonexistent" is missing.
 */

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const wikiPath = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};
const titleFromPath = (p: string) => decodeURIComponent(p.replace(/^\/wiki\//, '')).replace(/_/g, ' ');
const isMissing = (title: string) => /atlantis|nonexistent/i.test(title);

export function pageOf(facts: UpstreamFacts, lang: string, title: string): PageFacts | undefined {
  const t = title.replace(/_/g, ' ').trim();
  const normal = t.charAt(0).toUpperCase() + t.slice(1);
  if (!normal || isMissing(normal)) return undefined;
  const url = canonicalUrl(`https://${lang}.wikipedia.org/wiki/${encodeURIComponent(normal.replace(/ /g, '_'))}`);
  return facts.pages.get(url) ?? { url, title: normal, facts: [], links: [] };
}

/** The article as the parse API gives it (`parse.text`): infobox, lead, facts, links, a navbox. */
export function articleHtml(page: PageFacts): string {
  const field = /\(field: '([^']+)'\):\s*([\s\S]*)$/;
  const infobox = page.facts.flatMap((f) => {
    const m = field.exec(f);
    return m ? [`<tr><th scope="row" class="infobox-label">${escape(m[1])}</th><td class="infobox-data">${escape(m[2])}</td></tr>`] : [];
  });
  const others = page.facts.filter((f) => !field.test(f));
  const link = (u: string) => `<a href="${escape(wikiPath(u))}" title="${escape(titleFromPath(wikiPath(u)))}">${escape(titleFromPath(wikiPath(u)))}</a>`;
  return [
    '<div class="mw-content-ltr mw-parser-output" lang="en" dir="ltr">',
    `<div class="shortdescription nomobile noexcerpt noprint searchaux" style="display:none">Article about ${escape(page.title)}</div>`,
    '<style data-mw-deduplicate="TemplateStyles:r1238218222">.mw-parser-output .infobox{border:1px solid #a2a9b1}</style>',
    `<table class="infobox vcard"><tbody><tr><th colspan="2" class="infobox-above">${escape(page.title)}</th></tr>${infobox.join('')}</tbody></table>`,
    `<p><b>${escape(page.title)}</b> is the subject of this article.<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup></p>`,
    ...(others.length ? ['<div class="mw-heading mw-heading2"><h2 id="Facts">Facts</h2><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?action=edit&amp;section=1" title="Edit section: Facts">edit</a><span class="mw-editsection-bracket">]</span></span></div>', `<ul>${others.map((f) => `<li>${escape(f)}</li>`).join('')}</ul>`] : []),
    ...(page.links.length ? ['<div class="mw-heading mw-heading2"><h2 id="See_also">See also</h2></div>', `<ul>${page.links.map((u) => `<li>${link(u)}</li>`).join('')}</ul>`] : []),
    '<div class="mw-references-wrap"><ol class="references"><li id="cite_note-1"><span class="reference-text">A source.</span></li></ol></div>',
    '<div class="navbox" role="navigation"><a href="/wiki/Portal:Contents">Portal</a></div>',
    '</div>',
  ].join('\n');
}

/** MediaWiki's action API: action=parse, formatversion=2, prop text and langlinkscount. */
export function mediaWikiApi(facts: UpstreamFacts) {
  return (req: StandInRequest): StandInReply => {
    const m = /^\/([a-z-]+)\/w\/api\.php$/.exec(req.path);
    if (!m) return { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>Not Found</body></html>' };
    const q = req.query;
    if (q.action !== 'parse' || q.format !== 'json') return json({ error: { code: 'badvalue', info: 'Unrecognized value for parameter "action".' } });
    const page = pageOf(facts, m[1], q.page ?? '');
    if (!page) return json({ error: { code: 'missingtitle', info: "The page you specified doesn't exist.", docref: 'See https://en.wikipedia.org/w/api.php for API usage.' }, servedby: 'mw-api-ext.stand-in' });
    const props = (q.prop ?? '').split('|');
    return json({
      parse: {
        title: page.title,
        pageid: between(`pageid ${page.url}`, 1000, 80_000_000),
        ...(props.includes('text') ? { text: articleHtml(page) } : {}),
        ...(props.includes('langlinkscount') ? { langlinkscount: between(`langs ${page.url}`, 0, 120) } : {}),
      },
    });
  };
}

/** An article as a browser gets it from /wiki/<title>: the skin's header, menus, search and footer around it. */
export function wikipediaPages(facts: UpstreamFacts) {
  return (req: StandInRequest): StandInReply => {
    const m = /^\/([a-z-]+)\/wiki\/(.+)$/.exec(req.path);
    const page = m ? pageOf(facts, m[1], titleFromPath(`/wiki/${m[2]}`)) : undefined;
    const html = (body: string, status = 200): StandInReply => ({ status, headers: { 'content-type': 'text/html; charset=UTF-8' }, body });
    if (!page) return html('<!DOCTYPE html><html><head><title>Wikipedia does not have an article with this exact name</title></head><body><p>Wikipedia does not have an article with this exact name.</p></body></html>', 404);
    const title = escape(page.title);
    return html(
      [
        '<!DOCTYPE html>',
        `<html class="client-nojs vector-feature-language-in-header-enabled" lang="en" dir="ltr"><head><meta charset="UTF-8"><title>${title} - Wikipedia</title>`,
        '<script>document.documentElement.className="client-js";RLCONF={"wgPageName":"x"};</script>',
        '<link rel="stylesheet" href="/w/load.php?modules=skins.vector.styles"><meta name="viewport" content="width=1120"></head>',
        '<body class="skin-vector skin-vector-search-vue mediawiki ltr">',
        '<a class="mw-jump-link" href="#bodyContent">Jump to content</a>',
        '<div class="vector-header-container"><header class="vector-header mw-header"><nav aria-label="Site"><a href="/wiki/Main_Page">Main menu</a></nav>',
        '<div id="p-search"><form action="/w/index.php"><input type="search" name="search" placeholder="Search Wikipedia"><button>Search</button></form></div>',
        '<nav class="vector-user-links"><a href="/w/index.php?title=Special:CreateAccount">Create account</a> <a href="/w/index.php?title=Special:UserLogin">Log in</a></nav></header></div>',
        '<div class="mw-page-container"><nav id="mw-panel" aria-label="Navigation"><h3>Navigation</h3><ul><li><a href="/wiki/Main_Page">Main page</a></li><li><a href="/wiki/Wikipedia:Contents">Contents</a></li><li><a href="/wiki/Portal:Current_events">Current events</a></li><li><a href="/wiki/Special:Random">Random article</a></li><li><a href="/wiki/Wikipedia:About">About Wikipedia</a></li></ul>',
        '<h3>Contribute</h3><ul><li><a href="/wiki/Help:Contents">Help</a></li><li><a href="/wiki/Special:RecentChanges">Recent changes</a></li><li><a href="/wiki/Wikipedia:File_upload_wizard">Upload file</a></li></ul></nav>',
        `<main id="content" class="mw-body"><h1 id="firstHeading" class="firstHeading mw-first-heading"><span class="mw-page-title-main">${title}</span></h1>`,
        '<div class="vector-page-toolbar"><a href="#">Article</a> <a href="#">Talk</a> <a href="#">Read</a> <a href="#">Edit</a> <a href="#">View history</a></div>',
        '<div id="bodyContent" class="vector-body"><div id="siteSub" class="noprint">From Wikipedia, the free encyclopedia</div>',
        `<div id="mw-content-text" class="mw-body-content">${articleHtml(page)}</div>`,
        '<div id="catlinks" class="catlinks"><div id="mw-normal-catlinks"><a href="/wiki/Help:Category">Categories</a>: <ul><li><a href="/wiki/Category:Articles">Articles</a></li></ul></div></div></div></main>',
        `<footer id="footer" class="mw-footer"><ul><li id="footer-info-lastmod"> This page was last edited on ${between(`day ${page.url}`, 1, 28)} February 2026, at 10:${between(`min ${page.url}`, 10, 59)}<span class="anonymous-show">&#160;(UTC)</span>.</li>`,
        '<li id="footer-info-copyright">Text is available under the <a href="https://en.wikipedia.org/wiki/Wikipedia:Text_of_the_Creative_Commons_Attribution-ShareAlike_4.0_International_License">Creative Commons Attribution-ShareAlike 4.0 License</a>; additional terms may apply.</li></ul>',
        '<ul><li><a href="https://foundation.wikimedia.org/wiki/Special:MyLanguage/Policy:Privacy_policy">Privacy policy</a></li><li><a href="/wiki/Wikipedia:About">About Wikipedia</a></li><li><a href="/wiki/Wikipedia:General_disclaimer">Disclaimers</a></li></ul></footer></div>',
        '<script>(RLQ=window.RLQ||[]).push(function(){mw.config.set({"wgBackendResponseTime":123});});</script></body></html>',
      ].join('\n'),
    );
  };
}

/** A plain website: an article page, a redirect to it, a text file, a JSON document. */
export function plainWeb() {
  return (req: StandInRequest): StandInReply => {
    const html = (body: string, status = 200): StandInReply => ({ status, headers: { 'content-type': 'text/html; charset=UTF-8' }, body });
    switch (req.path) {
      case '/article.html':
        return html(
          '<!DOCTYPE html><html><head><title>Harbour Towns &amp; Their Lights</title><style>p{margin:0}</style><script>var tracking=1;</script></head><body>' +
            '<nav><a href="/">Home</a> | <a href="/about">About</a></nav><h1>Harbour towns</h1><p>The lighthouse at <strong>Port Ellen</strong> was lit in 1832 and stands 21 m tall.</p>' +
            '<table><tr><th>Town</th><th>Lit</th></tr><tr><td>Port Ellen</td><td>1832</td></tr><tr><td>Kirkwall</td><td>1861</td></tr></table>' +
            '<p>See <a href="other.html">the other towns</a>.</p><noscript>Enable scripts</noscript></body></html>',
        );
      case '/moved':
        return { status: 301, headers: { location: '/article.html' } };
      case '/notes.txt':
        return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Tide tables: high water 06:12 and 18:40.\n' };
      case '/data.json':
        return json({ towns: [{ name: 'Port Ellen', lit: 1832 }], source: 'stand-in' });
      default:
        return html('<html><head><title>Not Found</title></head><body>Not Found</body></html>', 404);
    }
  };
}

/** Serper's /search: the whole answer Google's page gives (knowledge graph, answer box, people also ask, ...). */
export function serper(facts: UpstreamFacts) {
  return (req: StandInRequest): StandInReply => {
    if (req.path !== '/search' || req.method !== 'POST') return json({ message: 'Not found.', statusCode: 404 }, 404);
    if (!req.headers['x-api-key']) return json({ message: 'Unauthorized.', statusCode: 403 }, 403);
    const body = (req.json ?? {}) as { q?: string; num?: number; gl?: string; hl?: string; location?: string };
    const q = String(body.q ?? '');
    if (!q.trim()) return json({ message: 'Query is required.', statusCode: 400 }, 400);
    const num = Math.max(1, Math.min(Number(body.num ?? 10), 100));
    const expected = facts.searches.get(normText(q));
    const subject = expected ? titleFromPath(wikiPath(expected)) : q.replace(/\b\w/g, (c) => c.toUpperCase());
    const wikiLink = expected ?? `https://en.wikipedia.org/wiki/${encodeURIComponent(subject.replace(/ /g, '_'))}`;
    const organic = Array.from({ length: num }, (_, i) => {
      const seed = `${normText(q)} ${i}`;
      const base = {
        title: i === 0 ? `${subject} - Wikipedia` : `${subject}: ${['history and facts', 'a guide', 'what to know', 'overview', 'news'][i % 5]}`,
        link: i === 0 ? wikiLink : `https://www.example${i}.org/${encodeURIComponent(normText(q).replace(/ /g, '-'))}`,
        snippet: `${subject} ${['is described here', 'in numbers', 'explained', 'at a glance', 'latest'][i % 5]}; result ${i + 1} for "${q}".`,
        ...(unit(`date ${seed}`) < 0.4 ? { date: `${between(`d ${seed}`, 1, 28)} Jan ${between(`y ${seed}`, 2015, 2026)}` } : {}),
        ...(i === 0 ? { sitelinks: [{ title: 'History', link: `${wikiLink}#History` }, { title: 'Geography', link: `${wikiLink}#Geography` }] } : {}),
        ...(i === 1 ? { attributes: { Founded: String(between(`f ${seed}`, 1700, 2000)), Headquarters: 'Old Town' } } : {}),
        position: i + 1,
      };
      return base;
    });
    const answer: Record<string, unknown> = {
      searchParameters: { q, ...(body.location ? { location: body.location } : {}), gl: body.gl ?? 'us', hl: body.hl ?? 'en', type: 'search', num, engine: 'google' },
      knowledgeGraph: {
        title: subject,
        type: 'Topic',
        website: `https://www.${normText(subject).replace(/[^a-z0-9]+/g, '')}.example.org/`,
        imageUrl: 'https://encrypted-tbn0.gstatic.com/images?q=tbn:stand-in',
        description: `${subject} as described by Wikipedia.`,
        descriptionSource: 'Wikipedia',
        descriptionLink: wikiLink,
        // Google gives some attributes as numbers.
        attributes: { Established: String(between(`est ${q}`, 1600, 2000)), Population: between(`pop ${q}`, 1000, 9_000_000), 'Area code': String(between(`ac ${q}`, 100, 999)) },
      },
      ...(unit(`box ${q}`) < 0.5 ? { answerBox: { title: subject, answer: `${between(`ans ${q}`, 2, 9000)} m`, snippet: `${subject} stands ${between(`ans ${q}`, 2, 9000)} m high.`, snippetHighlighted: [`${between(`ans ${q}`, 2, 9000)} m`], link: wikiLink } } : {}),
      organic,
      peopleAlsoAsk: [
        { question: `What is ${subject} known for?`, snippet: `${subject} is known for its history.`, title: `${subject} - Wikipedia`, link: wikiLink },
        { question: `Where is ${subject}?`, snippet: `${subject} lies in the north.`, title: `${subject} guide`, link: 'https://www.example1.org/guide' },
      ],
      relatedSearches: [{ query: `${q} history` }, { query: `${q} map` }, { query: `${q} population` }],
      ...(unit(`news ${q}`) < 0.5 ? { topStories: [{ title: `${subject} in the news`, link: 'https://news.example.org/1', source: 'Example News', date: '2 days ago', imageUrl: 'https://news.example.org/1.jpg' }] } : {}),
      credits: 1,
    };
    return json(answer);
  };
}

/** Chat completions: a program for the request, written differently by different models (as models do). */
export function openAiChat() {
  return (req: StandInRequest): StandInReply => {
    if (req.path !== '/v1/chat/completions' || req.method !== 'POST') return json({ error: { message: 'Unknown request URL', type: 'invalid_request_error' } }, 404);
    if (!String(req.headers.authorization ?? '').startsWith('Bearer ')) return json({ error: { message: 'You did not provide an API key.', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401);
    const body = (req.json ?? {}) as { model?: string; messages?: { role: string; content: string }[] };
    const model = body.model ?? 'gpt-4o-mini';
    const task = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
    const name = ['result', 'answer', 'value', 'total'][between(`name ${model}`, 0, 3)];
    const program = [`def main():`, `    # ${task.split('\n')[0].slice(0, 70)}`, `    ${name} = ${between(`n ${model} ${task}`, 1, 9999)}`, `    print(${name})`, '', "if __name__ == '__main__':", '    main()'].join('\n');
    const fenced = /fence|markdown/i.test(task) || unit(`fence ${model} ${task}`) < 0.3;
    return json({
      id: `chatcmpl-standin${between(`id ${task}`, 1, 99999)}`,
      object: 'chat.completion',
      created: 1773400000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: fenced ? `\`\`\`python\n${program}\n\`\`\`` : program, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 60 + Math.round(task.length / 4), completion_tokens: 40, total_tokens: 100 + Math.round(task.length / 4) },
    });
  };
}
