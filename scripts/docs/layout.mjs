import path from 'node:path';
import { siteUrlOf } from './site-links.mjs';

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A page's title: its first heading's text. */
const titleOf = (html) => /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1].replace(/<[^>]+>/g, '').trim() ?? 'AAR Harness';

/**
 * The page around a rendered Markdown file: a header, the navigation (nav.mjs's resolveNav, this page
 * marked) and the content. Every URL is relative, so the site works from any folder and from file://.
 */
export function renderPage({ content, sourcePath, nav }) {
  const here = siteUrlOf(sourcePath);
  const rel = (url) => path.posix.relative(path.posix.dirname(here), url) || path.posix.basename(url);
  const hrefOf = (target) => {
    const [file, fragment] = target.split('#');
    return rel(siteUrlOf(file)) + (fragment ? `#${fragment}` : '');
  };
  const sections = nav
    .map(({ section, items }) => {
      const links = items.map(({ title, target }) => {
        const current = target === sourcePath ? ' aria-current="page"' : '';
        return `<li><a href="${escape(hrefOf(target))}"${current}>${escape(title)}</a></li>`;
      });
      return `<h2>${escape(section)}</h2>\n<ul>\n${links.join('\n')}\n</ul>`;
    })
    .join('\n');
  const title = titleOf(content);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === 'AAR Harness' ? title : `${title} · AAR Harness`}</title>
<link rel="stylesheet" href="${rel('site.css')}">
</head>
<body>
<header><a class="home" href="${rel('index.html')}">AAR Harness</a> <span>documentation</span></header>
<div class="columns">
<nav aria-label="Documentation">
${sections}
</nav>
<main>
${content}
</main>
</div>
</body>
</html>
`;
}
