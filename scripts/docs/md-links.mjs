import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isExternal, linksAndAnchors, markdownParser } from './markdown.mjs';

/** The Markdown whose links must hold: README.md and every .md under docs/, as repository paths. */
export function markdownFiles(root) {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true })
    .map((f) => path.posix.join('docs', String(f).split(path.sep).join('/')))
    .filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.sort()];
}

/**
 * Every relative link and image of these files (repository paths under root) that does not resolve: the
 * file or folder is missing, or a `#fragment` names no heading or anchor of the Markdown file it points at.
 * External links are not fetched. One line each: `file:line: link: what is wrong`.
 */
export function brokenMarkdownLinks(root, files) {
  const md = markdownParser();
  const parsed = new Map();
  const read = (file) => {
    if (!parsed.has(file)) parsed.set(file, linksAndAnchors(md, readFileSync(path.join(root, file), 'utf8')));
    return parsed.get(file);
  };
  const problems = [];
  for (const file of files) {
    for (const { href, line } of read(file).links) {
      if (!href || isExternal(href)) continue;
      const problem = linkProblem(root, file, href, read);
      if (problem) problems.push(`${file}:${line}: ${href}: ${problem}`);
    }
  }
  return problems;
}

function linkProblem(root, file, href, read) {
  const hash = href.indexOf('#');
  const target = decodeURI(hash < 0 ? href : href.slice(0, hash));
  const fragment = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
  // GitHub reads `/x` from the repository's root, `x` from the linking file's folder.
  const resolved = !target ? file : path.posix.normalize(target.startsWith('/') ? target.slice(1) : path.posix.join(path.posix.dirname(file), target));
  if (resolved.startsWith('../')) return 'points outside the repository';
  if (!existsSync(path.join(root, resolved))) return `no such file or folder (${resolved})`;
  if (fragment === undefined || fragment === '') return undefined;
  if (!resolved.endsWith('.md')) return undefined;
  return read(resolved).anchors.has(fragment) ? undefined : `${resolved} has no heading or anchor #${fragment}`;
}
