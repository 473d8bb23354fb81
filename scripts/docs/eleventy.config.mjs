// The docs site (`npm run docs:build`, run from the repository's root): docs/ and the README rendered as
// GitHub renders them (markdown.mjs), links pointed at the site's pages (site-links.mjs), one plain layout.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPage } from './layout.mjs';
import { markdownParser } from './markdown.mjs';
import { resolveNav } from './nav.mjs';
import { siteLinks, siteUrlOf } from './site-links.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** docs/ Markdown files as repository paths. */
const docsPages = (input) =>
  readdirSync(input, { recursive: true })
    .map((f) => path.posix.join('docs', String(f).split(path.sep).join('/')))
    .filter((f) => f.endsWith('.md'))
    .sort();

export default function (eleventyConfig) {
  const input = 'docs';
  const outside = new Set();
  const nav = resolveNav(docsPages(input));
  const sourcePathOf = (data) => data.sourcePath ?? data.page.inputPath.replace(/^\.\//, '');

  eleventyConfig.setLibrary('md', markdownParser().use(siteLinks, { outside }));
  eleventyConfig.addGlobalData('layout', 'page.11ty.js');
  eleventyConfig.addGlobalData('eleventyComputed', {
    permalink: (data) => siteUrlOf(sourcePathOf(data)),
  });
  eleventyConfig.addTemplate('_includes/page.11ty.js', { render: (data) => renderPage({ content: data.content, sourcePath: sourcePathOf(data), nav }) });
  // The README is a page of the site too: its sections stand in for pages not written yet (nav.mjs).
  eleventyConfig.addTemplate('readme.md', readFileSync('README.md', 'utf8'), { sourcePath: 'README.md' });
  eleventyConfig.addPassthroughCopy(`${input}/**/*.png`);
  eleventyConfig.addPassthroughCopy({ [path.relative(process.cwd(), path.join(here, 'site.css'))]: 'site.css' });
  eleventyConfig.on('eleventy.after', () => {
    if (outside.size) console.log(`links to repository files that are not on the site, shown as text:\n  ${[...outside].sort().join('\n  ')}`);
  });
  return { dir: { input, output: 'site' }, templateFormats: ['md'], markdownTemplateEngine: false };
}
