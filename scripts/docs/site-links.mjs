import path from 'node:path';
import { isExternal } from './markdown.mjs';

/**
 * Where a repository file is on the docs site: docs/x/y.md is x/y.html, README.md is readme.html, other
 * files under docs/ (the PNGs) keep their place; anything else is not on the site (undefined).
 */
export function siteUrlOf(repoPath) {
  if (repoPath === 'README.md') return 'readme.html';
  if (!repoPath.startsWith('docs/')) return undefined;
  const onSite = repoPath.slice('docs/'.length);
  return onSite.endsWith('.md') ? `${onSite.slice(0, -'.md'.length)}.html` : onSite;
}

/** A repository-relative link target (`../README.md#x` from docs/wikirace.md) as the site's relative URL, or undefined when not on the site. */
export function siteHref(href, fromRepoPath) {
  if (!href || isExternal(href) || href.startsWith('#')) return href;
  const hash = href.indexOf('#');
  const target = hash < 0 ? href : href.slice(0, hash);
  const repoPath = path.posix.normalize(target.startsWith('/') ? target.slice(1) : path.posix.join(path.posix.dirname(fromRepoPath), target));
  const url = siteUrlOf(repoPath);
  if (url === undefined) return undefined;
  return path.posix.relative(path.posix.dirname(siteUrlOf(fromRepoPath)), url) + (hash < 0 ? '' : href.slice(hash));
}

/**
 * A markdown-it plugin: links and images written for GitHub (relative to the Markdown file) point at the
 * site's pages instead. A link to a repository file that is not on the site becomes its text (in a span
 * titled with the path), and is counted in `outside`. The page's repository path comes from the render
 * env: `sourcePath`, else Eleventy's `page.inputPath`.
 */
export function siteLinks(md, { outside }) {
  md.core.ruler.push('site_links', (state) => {
    const from = state.env.sourcePath ?? state.env.page?.inputPath?.replace(/^\.\//, '');
    if (!from) return;
    for (const token of state.tokens) {
      for (const [i, child] of (token.children ?? []).entries()) {
        const attribute = child.type === 'link_open' ? 'href' : child.type === 'image' ? 'src' : undefined;
        if (!attribute) continue;
        const original = child.attrGet(attribute);
        const href = siteHref(original, from);
        if (href !== undefined) child.attrSet(attribute, href);
        else if (attribute === 'href') {
          outside.add(`${from}: ${original}`);
          unlink(child, token.children.slice(i + 1), original);
        }
      }
    }
  });
}

function unlink(open, rest, title) {
  open.tag = 'span';
  open.attrs = [['class', 'outside-site'], ['title', title]];
  const close = rest.find((t) => t.type === 'link_close');
  if (close) close.tag = 'span';
}
