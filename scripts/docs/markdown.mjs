import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

/**
 * Markdown read as GitHub reads it, for what links need: headings get GitHub's ids (github-slugger, so
 * `## Security: what an agent can and cannot touch` is `#security-what-an-agent-can-and-cannot-touch`),
 * raw HTML is kept. The docs site renders with it and the link checks resolve anchors with it, so a
 * link that works on GitHub works on the site.
 */
export function markdownParser() {
  const md = new MarkdownIt({ html: true });
  md.core.ruler.push('github_heading_ids', (state) => {
    const slugger = new GithubSlugger();
    state.tokens.forEach((token, i) => {
      if (token.type === 'heading_open') token.attrSet('id', slugger.slug(headingText(state.tokens[i + 1])));
    });
  });
  return md;
}

/** A heading's text as GitHub slugs it: its text and code, without markup. */
const headingText = (inline) =>
  (inline.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');

const HTML_ATTRIBUTE = /\b(href|src|id|name)\s*=\s*"([^"]*)"/gi;

/**
 * What one Markdown file offers and asks of others: the anchors it has (heading ids, `id`/`name` in raw
 * HTML) and every link and image it makes (Markdown and raw HTML), with its line.
 */
export function linksAndAnchors(md, text) {
  const anchors = new Set();
  const links = [];
  const fromHtml = (html, line) => {
    for (const [, attribute, value] of html.matchAll(HTML_ATTRIBUTE)) {
      const name = attribute.toLowerCase();
      if (name === 'id' || name === 'name') anchors.add(value);
      else links.push({ href: value, line });
    }
  };
  let line = 1;
  for (const token of md.parse(text, {})) {
    if (token.map) line = token.map[0] + 1;
    if (token.type === 'heading_open') anchors.add(token.attrGet('id'));
    if (token.type === 'html_block') fromHtml(token.content, line);
    let at = line;
    for (const child of token.children ?? []) {
      if (child.type === 'softbreak' || child.type === 'hardbreak') at++;
      else if (child.type === 'link_open') links.push({ href: child.attrGet('href'), line: at });
      else if (child.type === 'image') links.push({ href: child.attrGet('src'), line: at });
      else if (child.type === 'html_inline') fromHtml(child.content, at);
    }
  }
  return { anchors, links };
}

/** A link that leaves the repository's files: `https:`, `mailto:`, `//host`. */
export const isExternal = (href) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');

/**
 * Plain text (a help text, a schema description) as Markdown that shows it as written, on one line that
 * may sit in a table cell: `<`, `>` and `*` outside code spans escaped, `|` everywhere (GFM allows it in
 * code spans too).
 */
export function literalText(text) {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\*/g, '\\*')))
    .join('')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
}
